#include "nat/cpu_info.h"
#include "common/ps_buf.h"
#include "common/ps_error.h"

#include <cpuid.h>
#include <intel-pt.h>
#include <stdio.h>
#include <string.h>

void cpu_info_decode(struct trace_cpu *cpu, uint32_t ebx0, uint32_t edx0,
		     uint32_t ecx0, uint32_t eax1)
{
	memset(cpu, 0, sizeof(*cpu));
	memcpy(cpu->vendor, &ebx0, 4);
	memcpy(cpu->vendor + 4, &edx0, 4);
	memcpy(cpu->vendor + 8, &ecx0, 4);

	cpu->family = (eax1 >> 8) & 0xf;
	if (cpu->family == 0xf)
		cpu->family += (eax1 >> 20) & 0xff;

	/* GDB folds the extended model only for these families (so not for
	   AMD's 0x17 or 0x19, unlike the kernel's /proc/cpuinfo).  */
	cpu->model = (eax1 >> 4) & 0xf;
	if (cpu->family == 0x6 || (cpu->family & 0xf) == 0xf)
		cpu->model += (eax1 >> 12) & 0xf0;

	cpu->stepping = eax1 & 0xf;
}

int cpu_info_read(struct trace_cpu *cpu)
{
	unsigned int eax, ebx, ecx, edx, sig, ignore;

	if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
		return -pse_unsupported;
	if (eax < 1 || !__get_cpuid(1, &sig, &ignore, &ignore, &ignore))
		sig = 0;
	cpu_info_decode(cpu, ebx, edx, ecx, sig);
	return 0;
}

int cpu_info_is_intel(const struct trace_cpu *cpu)
{
	return strcmp(cpu->vendor, "GenuineIntel") == 0;
}

int cpu_info_is_amd(const struct trace_cpu *cpu)
{
	return strcmp(cpu->vendor, "AuthenticAMD") == 0;
}

/* Nehalem, Westmere, Sandy Bridge and Ivy Bridge: AAJ122 makes BTS
   "from" addresses unreliable after power-state transitions.  */
static int intel_bts_erratum(const struct trace_cpu *cpu)
{
	static const unsigned int models[] = {
		0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c, 0x2f, 0x2a, 0x2d, 0x3a,
	};

	if (cpu->family != 0x6)
		return 0;
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (cpu->model == models[i])
			return 1;
	return 0;
}

int cpu_info_bts_allowed(const struct trace_cpu *cpu, char *reason,
			 size_t len)
{
	if (cpu_info_is_amd(cpu)) {
		snprintf(reason, len, "no BTS on AMD cpus");
		return -pse_unsupported;
	}
	if (cpu_info_is_intel(cpu) && intel_bts_erratum(cpu)) {
		snprintf(reason, len, "BTS disabled for family 6 model 0x%x "
			 "(erratum AAJ122)", cpu->model);
		return -pse_unsupported;
	}
	return 0;
}

int cpu_info_for_pt_config(struct trace_cpu *out,
			   const struct trace_cpu *cpu)
{
	struct pt_errata errata;
	struct pt_cpu pcpu;

	*out = *cpu;
	/* GDB only passes Intel cpus on to libipt; others mean no errata
	   anyway, and gdbserver leaves them out.  */
	if (!cpu_info_is_intel(cpu) || cpu->family > 0xffff
	    || cpu->model > 0xff || cpu->stepping > 0xff)
		goto drop;

	memset(&pcpu, 0, sizeof(pcpu));
	pcpu.vendor = pcv_intel;
	pcpu.family = (uint16_t) cpu->family;
	pcpu.model = (uint8_t) cpu->model;
	pcpu.stepping = (uint8_t) cpu->stepping;
	if (pt_cpu_errata(&errata, &pcpu) < 0)
		goto drop;
	return 1;

drop:
	out->vendor[0] = '\0';
	return 0;
}

int cpu_info_procfs(struct ps_buf *out)
{
	char chunk[4096];
	size_t n;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f)
		return -pse_io;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (ps_buf_append(out, chunk, n) < 0) {
			fclose(f);
			return -pse_nomem;
		}
	fclose(f);
	return 0;
}
