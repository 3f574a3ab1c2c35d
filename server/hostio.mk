# server: filled in by its owner
