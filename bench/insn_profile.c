// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin for make bench-idle: how many times each guest
 * instruction in [lo, hi) ran between the first execution of start and
 * the first of stop.  Every instruction of the range gets an inline
 * counter (no callback per instruction, so guest time under -icount is
 * unchanged); start and stop get a callback that copies the counters.
 *
 *   -plugin insn_profile.so,lo=HEX,hi=HEX,start=HEX,stop=HEX,out=FILE
 *
 * FILE gets "ADDR COUNT" lines (hex address, decimal count) for each
 * instruction that ran in the window, then "# window" or, if start or
 * stop never ran, "# no start" / "# no stop" (the counts then run from
 * the boot's first instruction or to QEMU's exit).  One vCPU, one host
 * thread (-accel tcg,thread=single): the counters are not atomic.
 *
 * QEMU's plugin API is declared here, the part this file uses, as QEMU
 * 7.2 (API version 1) defines it: Debian packages no qemu-plugin.h.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* QEMU's plugin API, version 1 (include/qemu/qemu-plugin.h) */
#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;	/* not read here */
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op,
						void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

/* Each instruction seen gets a slot: its address and its counter. */
#define HASH_BITS	21
#define HASH_SIZE	(1u << HASH_BITS)
#define MAX_SLOTS	(HASH_SIZE / 2)

static uint64_t lo, hi, start_at, stop_at;
static const char *out_path;
static uint32_t *hash;			/* slot + 1, or 0 */
static uint64_t *addr, *count, *at_start, *at_stop;
static uint32_t nslots, nslots_at_start, nslots_at_stop;
static bool started, stopped, full;

static uint32_t slot_of(uint64_t a)
{
	uint32_t h = (uint32_t)((a * 0x9e3779b97f4a7c15ull) >> (64 - HASH_BITS));

	for (;; h = (h + 1) & (HASH_SIZE - 1)) {
		if (!hash[h]) {
			if (nslots == MAX_SLOTS)
				return UINT32_MAX;
			addr[nslots] = a;
			hash[h] = ++nslots;
			return nslots - 1;
		}
		if (addr[hash[h] - 1] == a)
			return hash[h] - 1;
	}
}

static void snap_start(unsigned int vcpu, void *userdata)
{
	(void)vcpu; (void)userdata;
	if (started)
		return;
	memcpy(at_start, count, nslots * sizeof(*count));
	nslots_at_start = nslots;
	started = true;
}

static void snap_stop(unsigned int vcpu, void *userdata)
{
	(void)vcpu; (void)userdata;
	if (stopped || !started)
		return;
	memcpy(at_stop, count, nslots * sizeof(*count));
	nslots_at_stop = nslots;
	stopped = true;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t a = qemu_plugin_insn_vaddr(insn);
		uint32_t s;

		if (a < lo || a >= hi)
			continue;
		s = slot_of(a);
		if (s == UINT32_MAX) {
			full = true;
			continue;
		}
		/* The copy comes first: start's own count is the window's. */
		if (a == start_at)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, snap_start,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		if (a == stop_at)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, snap_stop,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &count[s], 1);
	}
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	const uint64_t *end = stopped ? at_stop : count;
	uint32_t i, n = stopped ? nslots_at_stop : nslots;
	FILE *f = fopen(out_path, "w");

	(void)id; (void)userdata;
	if (!f) {
		qemu_plugin_outs("insn_profile: cannot write the output file\n");
		return;
	}
	for (i = 0; i < n; i++) {
		uint64_t c = end[i] - (started && i < nslots_at_start ? at_start[i] : 0);

		if (c)
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", addr[i], c);
	}
	fprintf(f, "%s%s%s\n", started ? "" : "# no start\n", stopped ? "" : "# no stop\n",
		full ? "# too many instructions: some not counted" : "# window");
	fclose(f);
}

static bool arg_hex(const char *arg, const char *key, uint64_t *v)
{
	size_t k = strlen(key);
	char *end;

	if (strncmp(arg, key, k) || arg[k] != '=')
		return false;
	*v = strtoull(arg + k + 1, &end, 16);
	return *end == '\0' && end != arg + k + 1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (arg_hex(argv[i], "lo", &lo) || arg_hex(argv[i], "hi", &hi) ||
		    arg_hex(argv[i], "start", &start_at) || arg_hex(argv[i], "stop", &stop_at))
			continue;
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			out_path = argv[i] + 4;
			continue;
		}
		fprintf(stderr, "insn_profile: unknown or malformed argument '%s'\n", argv[i]);
		return -1;
	}
	if (!out_path || lo >= hi || !start_at || !stop_at) {
		fprintf(stderr, "insn_profile: needs lo=HEX,hi=HEX (lo < hi),start=HEX,stop=HEX,out=FILE\n");
		return -1;
	}
	hash = calloc(HASH_SIZE, sizeof(*hash));
	addr = calloc(MAX_SLOTS, sizeof(*addr));
	count = calloc(MAX_SLOTS, sizeof(*count));
	at_start = calloc(MAX_SLOTS, sizeof(*at_start));
	at_stop = calloc(MAX_SLOTS, sizeof(*at_stop));
	if (!hash || !addr || !count || !at_start || !at_stop) {
		fprintf(stderr, "insn_profile: out of memory\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
