# nat/emu: filled in by its owner
