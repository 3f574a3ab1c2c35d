# xml/: the XML documents the stub serves (target descriptions, btrace
# and btrace-conf) and their DTDs.
noinst_LIBRARIES += xml/libpsxml.a
xml_libpsxml_a_SOURCES = \
	xml/tdesc_amd64.c xml/tdesc_amd64.h \
	xml/btrace_xml.c xml/btrace_xml.h
EXTRA_DIST += xml/btrace.dtd xml/btrace-conf.dtd
