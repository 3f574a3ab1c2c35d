# xml: filled in by its owner
