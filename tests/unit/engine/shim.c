// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace machine behind tests/unit/engine/shim.h: CPUs and their
 * per-CPU copies, tasks, clocks, a kallsyms of registered names, printk
 * into a buffer, and the few lib functions the engine calls.
 */
#include <ctype.h>

#include "shim.h"

int shim_cpu;
int shim_cpus_online = SHIM_NR_CPUS;
unsigned long shim_cpus_scheduled;
struct task_struct *shim_current = &shim_idle[0];
struct task_struct shim_idle[SHIM_NR_CPUS];
struct task_struct *shim_tasks;
bool shim_in_irq;
unsigned long shim_sp;
u64 shim_sched_clock, shim_tsc, shim_tsc_step;
u64 (*shim_tsc_noise)(void);
unsigned long shim_tsc_khz, shim_boot_khz;
long shim_mem_available = 1L << 30;	/* 4 TiB of pages */
char boot_command_line[COMMAND_LINE_SIZE];
char shim_log[8192];
int shim_warnings;

void shim_printk(const char *fmt, ...)
{
	size_t len = strlen(shim_log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(shim_log + len, sizeof(shim_log) - len, fmt, ap);
	va_end(ap);
}

/* --- per-CPU --------------------------------------------------------- */

static struct {
	char *var;
	size_t size;
	char *copy[SHIM_NR_CPUS];	/* saved copies, running CPU's unused */
} pcpu[4];
static unsigned int npcpu;

void shim_pcpu_register(void *var, size_t size)
{
	int c;

	assert(npcpu < sizeof(pcpu) / sizeof(pcpu[0]));
	pcpu[npcpu].var = var;
	pcpu[npcpu].size = size;
	for (c = 0; c < SHIM_NR_CPUS; c++)
		pcpu[npcpu].copy[c] = calloc(1, size);
	npcpu++;
}

void *shim_pcpu_ptr(void *p, int cpu)
{
	unsigned int i;

	if (cpu == shim_cpu)
		return p;
	for (i = 0; i < npcpu; i++)
		if ((char *)p >= pcpu[i].var &&
		    (char *)p < pcpu[i].var + pcpu[i].size)
			return pcpu[i].copy[cpu] + ((char *)p - pcpu[i].var);
	assert(!"not a per-CPU variable");
	return NULL;
}

void shim_set_cpu(int cpu)
{
	unsigned int i;

	for (i = 0; i < npcpu; i++) {
		memcpy(pcpu[i].copy[shim_cpu], pcpu[i].var, pcpu[i].size);
		memcpy(pcpu[i].var, pcpu[i].copy[cpu], pcpu[i].size);
	}
	shim_cpu = cpu;
}

/* --- clocks ------------------------------------------------------------ */

/* As kernel/time/clocksource.c computes them. */
void clocks_calc_mult_shift(u32 *mult, u32 *shift, u32 from, u32 to,
			    u32 maxsec)
{
	u64 tmp;
	u32 sft, sftacc = 32;

	tmp = ((u64)maxsec * from) >> 32;
	while (tmp) {
		tmp >>= 1;
		sftacc--;
	}
	for (sft = 32; sft > 0; sft--) {
		tmp = (u64)to << sft;
		tmp += from / 2;
		tmp /= from;
		if ((tmp >> sftacc) == 0)
			break;
	}
	*mult = tmp;
	*shift = sft;
}

/* --- kallsyms ------------------------------------------------------------ */

static struct { char name[64]; unsigned long addr; } syms[64];
static unsigned int nsyms;

void shim_add_symbol(const char *name, unsigned long addr)
{
	assert(nsyms < sizeof(syms) / sizeof(syms[0]));
	strscpy(syms[nsyms].name, name, sizeof(syms[nsyms].name));
	syms[nsyms++].addr = addr;
}

int kallsyms_on_each_match_symbol(int (*fn)(void *, unsigned long),
				  const char *name, void *data)
{
	unsigned int i;
	int ret;

	for (i = 0; i < nsyms; i++)
		if (!strcmp(syms[i].name, name) && (ret = fn(data, syms[i].addr)))
			return ret;
	return 0;
}

unsigned long kallsyms_lookup_name(const char *name)
{
	return 0;		/* no modules */
}

const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *off, char **mod, char *buf)
{
	unsigned int i;

	for (i = 0; i < nsyms; i++) {
		if (syms[i].addr == addr) {
			*off = 0;
			*size = 1;
			*mod = NULL;
			strcpy(buf, syms[i].name);
			return buf;
		}
	}
	return NULL;
}

/* --- lib --------------------------------------------------------------- */

void sort(void *base, size_t num, size_t size,
	  int (*cmp)(const void *, const void *), void *swap)
{
	qsort(base, num, size, cmp);
}

ssize_t strscpy(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size);

	if (!size)
		return -E2BIG;
	if (len == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, len + 1);
	return len;
}

char *skip_spaces(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return (char *)s;
}

/* As lib/cmdline.c: param[=val], val may be "quoted". */
char *next_arg(char *args, char **param, char **val)
{
	unsigned int i, equals = 0;
	int in_quote = 0, quoted = 0;

	if (*args == '"') {
		args++;
		in_quote = 1;
		quoted = 1;
	}
	for (i = 0; args[i]; i++) {
		if (isspace((unsigned char)args[i]) && !in_quote)
			break;
		if (equals == 0 && args[i] == '=')
			equals = i;
		else if (args[i] == '"')
			in_quote = !in_quote;
	}
	*param = args;
	if (!equals) {
		*val = NULL;
	} else {
		args[equals] = '\0';
		*val = args + equals + 1;
		if (**val == '"') {
			(*val)++;
			if (args[i - 1] == '"')
				args[i - 1] = '\0';
		}
	}
	if (quoted && i > 0 && args[i - 1] == '"')
		args[i - 1] = '\0';
	if (args[i]) {
		args[i] = '\0';
		args += i + 1;
	} else {
		args += i;
	}
	return skip_spaces(args);
}
