# doc: filled in by its owner
