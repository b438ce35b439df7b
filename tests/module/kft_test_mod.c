// SPDX-License-Identifier: GPL-2.0
/*
 * A module for KFT's tests (tests/e2e/test_modules.sh).  Reading
 * /proc/kft_test_mod runs a small call tree of the module's own functions,
 * to be traced, and says what the module's hook call sites hold right now,
 * read from its text: calls to the hooks, NOPs, or anything else.
 * Loaded with panic_in_init=1, its init - an initcall - panics: the
 * kernel's panic in an initcall, for kft_dump=panic.
 */
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/kft_compat.h>	/* within_module_mem_type() before 6.4 */
#ifdef CONFIG_X86
#include <asm/nops.h>
#include <asm/text-patching.h>
#endif
#ifdef CONFIG_ARM64
#include <asm/insn.h>
#endif

/* The compiler's hooks, which kernel/kft.c provides. */
void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

static noinline int kft_test_mod_leaf(int i)
{
	barrier();	/* a real call, not folded into its caller */
	return 2 * i + 1;
}

static noinline int kft_test_mod_work(int n)
{
	int i, sum = 0;

	for (i = 0; i < n; i++)
		sum += kft_test_mod_leaf(i);
	return sum;
}

struct kft_test_mod_count {
	unsigned int calls, nops, other;
};

enum { SITE_OTHER, SITE_CALL, SITE_NOP };

/*
 * What a site holds, decoded here rather than with KFT's asm/kft.h: the
 * call, or the NOP; for a tail call of the exit hook (a jump), the jump to
 * the hook, or a jump to a return (counted as the NOP it stands for).
 */
static int kft_test_mod_site(const void *site, void *hook)
{
#ifdef CONFIG_X86
	static const u8 nop[CALL_INSN_SIZE] = { BYTES_NOP5 };
	static const u8 endbr[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	const u8 *at = site, *to;
	s32 rel;

	if (!memcmp(site, text_gen_insn(CALL_INSN_OPCODE, site, hook),
		    CALL_INSN_SIZE) ||
	    !memcmp(site, text_gen_insn(JMP32_INSN_OPCODE, site, hook),
		    JMP32_INSN_SIZE))
		return SITE_CALL;
	if (!memcmp(site, nop, CALL_INSN_SIZE))
		return SITE_NOP;
	if (at[0] == JMP32_INSN_OPCODE) {
		memcpy(&rel, at + 1, sizeof(rel));
		to = at + JMP32_INSN_SIZE + rel;
		if (!memcmp(to, endbr, sizeof(endbr)))
			to += sizeof(endbr);
		/* RET, or a JMP to the return thunk */
		if (to[0] == RET_INSN_OPCODE || to[0] == JMP32_INSN_OPCODE)
			return SITE_NOP;
	}
#endif
#ifdef CONFIG_ARM64
	u32 insn = le32_to_cpu(*(__le32 *)site), op = insn & 0xfc000000;
	const __le32 *to;

	/* BL, B: imm26, in words, signed. */
	to = site + sign_extend64((insn & 0x3ffffff) << 2, 27);
	if ((op == 0x94000000 || op == 0x14000000) && (void *)to == hook)
		return SITE_CALL;
	if (insn == 0xd503201f)		/* NOP; 6.1 exports no aarch64_insn_gen_nop() */
		return SITE_NOP;
	if (op == 0x14000000) {
		if (le32_to_cpu(*to) == 0xd503245f)	/* BTI C */
			to++;
		if (le32_to_cpu(*to) == 0xd65f03c0)	/* RET */
			return SITE_NOP;
	}
#endif
	return SITE_OTHER;
}

static void kft_test_mod_count(struct kft_test_mod_count *c,
			       const unsigned long *loc, unsigned int n,
			       void *hook)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		/* Init code keeps its calls, and is gone by now. */
		if (!within_module_mem_type(loc[i], THIS_MODULE, MOD_TEXT))
			continue;
		switch (kft_test_mod_site((const void *)loc[i], hook)) {
		case SITE_CALL:
			c->calls++;
			break;
		case SITE_NOP:
			c->nops++;
			break;
		default:
			c->other++;
		}
	}
}

static int kft_test_mod_show(struct seq_file *m, void *v)
{
	struct kft_test_mod_count c = { };

	seq_printf(m, "work %d\n", kft_test_mod_work(3));
	kft_test_mod_count(&c, THIS_MODULE->kft_enter_loc,
			   THIS_MODULE->num_kft_enter_loc,
			   __cyg_profile_func_enter);
	kft_test_mod_count(&c, THIS_MODULE->kft_exit_loc,
			   THIS_MODULE->num_kft_exit_loc,
			   __cyg_profile_func_exit);
	seq_printf(m, "sites: calls %u nops %u other %u\n",
		   c.calls, c.nops, c.other);
	return 0;
}

static struct proc_dir_entry *kft_test_mod_file;

static bool panic_in_init;
module_param(panic_in_init, bool, 0);
MODULE_PARM_DESC(panic_in_init, "panic in the module's init");

static int __init kft_test_mod_init(void)
{
	if (panic_in_init)
		panic("kft_test_mod: panic_in_init");
	kft_test_mod_file = proc_create_single("kft_test_mod", 0444, NULL,
					       kft_test_mod_show);
	return kft_test_mod_file ? 0 : -ENOMEM;
}

static void __exit kft_test_mod_exit(void)
{
	proc_remove(kft_test_mod_file);
}

module_init(kft_test_mod_init);
module_exit(kft_test_mod_exit);
MODULE_DESCRIPTION("KFT test module: hook sites and a call tree to trace");
MODULE_LICENSE("GPL");
