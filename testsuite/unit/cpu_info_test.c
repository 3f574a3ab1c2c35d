/* CPUID decoding as GDB's btrace does it, and the BTS cpu rules.  */
#include "nat/cpu_info.h"
#include "common/ps_error.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The three CPUID leaf-0 registers for a 12-character VENDOR.  */
static void vendor_regs(const char *vendor, uint32_t *ebx, uint32_t *edx,
			uint32_t *ecx)
{
	memcpy(ebx, vendor, 4);
	memcpy(edx, vendor + 4, 4);
	memcpy(ecx, vendor + 8, 4);
}

/* A leaf-1 signature from its fields.  */
static uint32_t signature(unsigned ext_family, unsigned ext_model,
			  unsigned family, unsigned model, unsigned stepping)
{
	return ext_family << 20 | ext_model << 16 | family << 8 | model << 4
		| stepping;
}

static void decode(struct trace_cpu *cpu, const char *vendor, uint32_t sig)
{
	uint32_t ebx, edx, ecx;

	vendor_regs(vendor, &ebx, &edx, &ecx);
	cpu_info_decode(cpu, ebx, edx, ecx, sig);
}

Test(cpu_info, intel_family_6_folds_the_extended_model)
{
	struct trace_cpu cpu;

	decode(&cpu, "GenuineIntel", signature(0, 0x8, 0x6, 0xf, 0x8));
	cr_assert_str_eq(cpu.vendor, "GenuineIntel");
	cr_assert_eq(cpu.family, 6);
	cr_assert_eq(cpu.model, 0x8f);
	cr_assert_eq(cpu.stepping, 8);
	cr_assert(cpu_info_is_intel(&cpu));
	cr_assert(!cpu_info_is_amd(&cpu));
}

Test(cpu_info, family_15_adds_the_extended_family)
{
	struct trace_cpu cpu;

	decode(&cpu, "GenuineIntel", signature(0, 1, 0xf, 4, 1));
	cr_assert_eq(cpu.family, 0xf);
	cr_assert_eq(cpu.model, 0x14);

	/* AMD Zen 2: family 0xf + 8; GDB does not fold the model there.  */
	decode(&cpu, "AuthenticAMD", signature(8, 3, 0xf, 1, 0));
	cr_assert_eq(cpu.family, 0x17);
	cr_assert_eq(cpu.model, 0x1);
	cr_assert(cpu_info_is_amd(&cpu));

	/* Family 0x1f has low nibble 0xf: folded again.  */
	decode(&cpu, "AuthenticAMD", signature(0x10, 2, 0xf, 3, 0));
	cr_assert_eq(cpu.family, 0x1f);
	cr_assert_eq(cpu.model, 0x23);
}

Test(cpu_info, other_families_keep_the_base_model)
{
	struct trace_cpu cpu;

	decode(&cpu, "GenuineIntel", signature(0, 2, 5, 4, 3));
	cr_assert_eq(cpu.family, 5);
	cr_assert_eq(cpu.model, 4);
	cr_assert_eq(cpu.stepping, 3);
}

/* The value of FIELD in the first processor of /proc/cpuinfo.  */
static int cpuinfo_field(const char *field, char *value, size_t len)
{
	FILE *file = fopen("/proc/cpuinfo", "r");
	char line[512];
	int found = 0;

	if (!file)
		return 0;
	while (!found && fgets(line, sizeof(line), file)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, field, strlen(field)) != 0)
			continue;
		if (line[strlen(field)] != ' ' && line[strlen(field)] != '\t')
			continue;
		snprintf(value, len, "%s", colon + 2);
		value[strcspn(value, "\n")] = '\0';
		found = 1;
	}
	fclose(file);
	return found;
}

Test(cpu_info, this_cpu_matches_the_kernel)
{
	struct trace_cpu cpu;
	char vendor[64], family[32], model[32], stepping[32];

	cr_assert_eq(cpu_info_read(&cpu), 0);
	if (!cpuinfo_field("vendor_id", vendor, sizeof(vendor))
	    || !cpuinfo_field("cpu family", family, sizeof(family))
	    || !cpuinfo_field("model", model, sizeof(model))
	    || !cpuinfo_field("stepping", stepping, sizeof(stepping))) {
		fprintf(stderr, "SKIP: /proc/cpuinfo lacks the x86 fields\n");
		cr_skip_test("/proc/cpuinfo lacks the x86 fields");
	}

	cr_assert_str_eq(cpu.vendor, vendor);
	cr_assert_eq(cpu.family, strtoul(family, NULL, 10));
	cr_assert_eq(cpu.stepping, strtoul(stepping, NULL, 10));
	/* The kernel folds the extended model for every family from 6 on;
	   GDB only for 6 and 0x?f, so only those must agree.  */
	if (cpu.family == 6 || (cpu.family & 0xf) == 0xf)
		cr_assert_eq(cpu.model, strtoul(model, NULL, 10));
	else
		cr_assert_leq(cpu.model, strtoul(model, NULL, 10));
}

Test(cpu_info, bts_follows_gdbs_rules)
{
	struct trace_cpu cpu;
	char reason[128];

	decode(&cpu, "AuthenticAMD", signature(8, 3, 0xf, 1, 0));
	reason[0] = '\0';
	cr_assert_eq(cpu_info_bts_allowed(&cpu, reason, sizeof(reason)),
		     -pse_unsupported);
	cr_assert(strstr(reason, "AMD"));

	/* Sandy Bridge, one of the AAJ122 models.  */
	decode(&cpu, "GenuineIntel", signature(0, 2, 6, 0xa, 7));
	reason[0] = '\0';
	cr_assert_eq(cpu_info_bts_allowed(&cpu, reason, sizeof(reason)),
		     -pse_unsupported);
	cr_assert(strstr(reason, "0x2a"));

	decode(&cpu, "GenuineIntel", signature(0, 8, 6, 0xf, 8));
	cr_assert_eq(cpu_info_bts_allowed(&cpu, reason, sizeof(reason)), 0);

	/* The same model number outside family 6 is no erratum.  */
	decode(&cpu, "GenuineIntel", signature(1, 2, 0xf, 0xa, 0));
	cr_assert_eq(cpu_info_bts_allowed(&cpu, reason, sizeof(reason)), 0);

	decode(&cpu, "CentaurHauls", signature(0, 0, 6, 0xf, 0));
	cr_assert_eq(cpu_info_bts_allowed(&cpu, reason, sizeof(reason)), 0);
}

Test(cpu_info, pt_config_names_only_cpus_the_decoder_knows)
{
	struct trace_cpu cpu, out;

	/* Broadwell: known to every libipt since 1.x.  */
	decode(&cpu, "GenuineIntel", signature(0, 3, 6, 0xd, 4));
	cr_assert_eq(cpu_info_for_pt_config(&out, &cpu), 1);
	cr_assert_str_eq(out.vendor, "GenuineIntel");
	cr_assert_eq(out.model, 0x3d);

	/* No such model: GDB would refuse the whole trace.  */
	decode(&cpu, "GenuineIntel", signature(0, 0xf, 6, 0xf, 0));
	cr_assert_eq(cpu_info_for_pt_config(&out, &cpu), 0);
	cr_assert_str_eq(out.vendor, "");
	cr_assert_eq(out.model, 0xff, "the rest is left as it was");

	decode(&cpu, "AuthenticAMD", signature(8, 3, 0xf, 1, 0));
	cr_assert_eq(cpu_info_for_pt_config(&out, &cpu), 0);
	cr_assert_str_eq(out.vendor, "");
}
