# Manual pages.
dist_man_MANS += doc/ptbtrace.1 doc/ptstub.1
