/* The cpu as GDB's btrace names it in <pt-config>: CPUID vendor string,
   and family and model with the extended fields folded in the way GDB's
   own btrace_this_cpu does (which is not always the kernel's way).  */
#ifndef CPU_INFO_H
#define CPU_INFO_H

#include "common/trace.h"

#include <stddef.h>
#include <stdint.h>

/* Decode CPUID leaf 0's EBX, EDX, ECX (the vendor string's order) and
   leaf 1's EAX (the signature) into CPU.  */
void cpu_info_decode(struct trace_cpu *cpu, uint32_t ebx0, uint32_t edx0,
		     uint32_t ecx0, uint32_t eax1);

/* Identify the cpu this runs on; -pse_unsupported without CPUID.  */
int cpu_info_read(struct trace_cpu *cpu);

int cpu_info_is_intel(const struct trace_cpu *cpu);
int cpu_info_is_amd(const struct trace_cpu *cpu);

/* Whether BTS may be used on CPU, by GDB's rules: not on AMD, not on the
   Intel models with erratum AAJ122; unknown vendors are given the benefit
   of the doubt.  0 if allowed, else -pse_unsupported with REASON set.  */
int cpu_info_bts_allowed(const struct trace_cpu *cpu, char *reason,
			 size_t len);

/* The cpu to name in a PT trace's <pt-config>: CPU itself when GDB's
   decoder library (libipt, the copy linked here) knows its errata, else
   none (OUT's vendor empty).  GDB 13.1 refuses to decode a trace naming
   an Intel cpu libipt does not know ("Failed to configure the Intel
   Processor Trace decoder: unknown cpu."), while no cpu means "no
   errata" and decodes.  Returns 1 when CPU was kept, 0 when dropped.  */
int cpu_info_for_pt_config(struct trace_cpu *out,
			   const struct trace_cpu *cpu);

struct ps_buf;

/* Append /proc/cpuinfo, as LLDB's procfsCpuInfo trace data is.  */
int cpu_info_procfs(struct ps_buf *out);

#endif
