# nat: filled in by its owner
