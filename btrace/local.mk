# btrace: filled in by its owner
