// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel Function Trace: GCC's -finstrument-functions, after inlining.
 *
 * -finstrument-functions puts the hooks into every function before the
 * inliner runs, passing each function's own address.  That address makes
 * every static function address-taken, so GCC keeps an out-of-line copy
 * of each, no longer inlines a function because it has one caller, and
 * prices every small function with its two hook calls: a traced kernel
 * runs thousands of calls the untraced one inlines (x86_64 tinyconfig at
 * -O2: 13,496 local functions against vanilla's 7,697), and they stay in
 * the kernel while the hooks are NOPs.
 *
 * This pass adds the same calls after inlining, as Clang's
 * -finstrument-functions-after-inlining does: into each function that is
 * still a function once the inliner is done, with that function's (or
 * clone's) address.  Functions the compiler inlined are not traced; the
 * ones left are the untraced kernel's.  notrace (no_instrument_function)
 * and naked functions are left alone, as -finstrument-functions leaves
 * them.  It runs before the tail-call pass, so a void function may still
 * end with a jump to the exit hook, as with -finstrument-functions.
 *
 * On x86_64 and arm64 each call is inline asm that clobbers only what the
 * call itself must, and the hooks save every other register they use
 * (asm/kft.h): the function around it keeps its values where the
 * untraced one does, instead of saving them across two calls that are
 * NOPs while KFT is idle (a leaf like strncmp() no longer saves three
 * registers).  The entry's clobbers next to nothing; at an exit only the
 * return value is live, and the exit's clobbers every other caller-saved
 * register, so that the exit hook has few to save.  Not on x86_64 with
 * frame pointers: an asm call cannot make GCC set up the frame before it.
 *
 * Loaded through CC_FLAGS_FTRACE (CONFIG_KFT_AFTER_INLINING), so every
 * ftrace opt-out keeps it out of the same code.
 */

#include "gcc-common.h"

__visible int plugin_is_GPL_compatible;

static struct plugin_info kft_plugin_info = {
	.version	= PLUGIN_VERSION,
	.help		= "Kernel Function Trace: -finstrument-functions after inlining\n",
};

/* Garbage-collected trees: kept alive by kft_ggc_roots. */
static tree kft_enter_decl;
static tree kft_exit_decl;

static const struct ggc_root_tab kft_ggc_roots[] = {
	{ &kft_enter_decl, 1, sizeof(kft_enter_decl), &gt_ggc_mx_tree_node,
	  &gt_pch_nx_tree_node },
	{ &kft_exit_decl, 1, sizeof(kft_exit_decl), &gt_ggc_mx_tree_node,
	  &gt_pch_nx_tree_node },
	LAST_GGC_ROOT_TAB
};

/* void HOOK(void *this_fn, void *call_site), as the compiler declares it. */
static tree kft_hook_decl(const char *name)
{
	tree type = build_function_type_list(void_type_node, ptr_type_node,
					     ptr_type_node, NULL_TREE);
	tree decl = build_fn_decl(name, type);

	DECL_EXTERNAL(decl) = 1;
	TREE_PUBLIC(decl) = 1;
	DECL_ARTIFICIAL(decl) = 1;
	TREE_NOTHROW(decl) = 1;
	DECL_NO_INSTRUMENT_FUNCTION_ENTRY_EXIT(decl) = 1;
	return decl;
}

static tree kft_asm_operand(const char *constraint, tree val)
{
	tree c = build_string(strlen(constraint) + 1, constraint);

	return build_tree_list(build_tree_list(NULL_TREE, c), val);
}

/*
 * A hook call as inline asm, per target: the function's address an
 * immediate (%c1), so GCC cannot keep it in a register across the body;
 * the return address (%0) in the register the hook takes it in, which the
 * hook leaves as it found it, like every register but the ones clobbered.
 */
struct kft_asm_abi {
	const char *attr;	/* a target attribute only this target knows */
	const char *load_fn;	/* puts %c1 in the hook's first argument */
	const char *load_far;	/* the same for a weak function, if needed */
	const char *ra;		/* the return address's constraint ... */
	const char *ra_reg;	/* ... or its register, for "r" */
	const char *clobbers[5];		/* the entry's */
	const char *exit_clobbers[20];
	bool frame_pointer;	/* also where GCC keeps a frame pointer */
	bool ra_at_entry;	/* the exits' return address is the entry's */
};

static const struct kft_asm_abi kft_asm_abis[] = {
	/*
	 * x86_64: the entry hook is __no_caller_saved_registers, the exit's
	 * a thunk that saves %rax, %rdx (the return value) and %rsi.
	 */
	{ "no_caller_saved_registers", "movq $%c1, %%rdi\n\tcall ", NULL,
	  "S", NULL, { "rdi" },
	  { "rdi", "rcx", "r8", "r9", "r10", "r11" }, false, false },
	/*
	 * arm64: the hooks are thunks (asm/kft.h) that take their arguments
	 * in x9 and x10, so that a function's own arguments stay where they
	 * are, and save every register but x9, the x30 of the BL, and x16
	 * and x17, which a module's PLT may change on its way; the exit's
	 * saves x0 and x1 (the return value), x10 and x18.  ADR reaches
	 * 1 MB, the function's own code; a weak function's symbol may be a
	 * strong definition anywhere in the kernel, which ADRP reaches.
	 * The return address is read once, at entry: GCC reads it from x30
	 * and strips it (XPACLRI) each time, and the exits would move it
	 * back into x30 for that.
	 */
	{ "aarch64_vector_pcs", "adr x9, %c1\n\tbl ",
	  "adrp x9, %c1\n\tadd x9, x9, :lo12:%c1\n\tbl ", "r", "x10",
	  { "x9", "x16", "x17", "x30", "cc" },
	  { "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x11", "x12",
	    "x13", "x14", "x15", "x16", "x17", "x30", "cc" }, true, true },
};

static const struct kft_asm_abi *kft_asm_abi;

/* ra, in the ABI's register where it has no constraint of its own. */
static tree kft_asm_ra(gimple_seq *seq, tree ra)
{
	tree reg;

	if (!kft_asm_abi->ra_reg)
		return ra;
	reg = create_tmp_var(ptr_type_node, "kft_ra");
	DECL_REGISTER(reg) = 1;
	DECL_HARD_REGISTER(reg) = 1;
	set_user_assembler_name(reg, kft_asm_abi->ra_reg);
	gimple_seq_add_stmt(seq, gimple_build_assign(reg, ra));
	return reg;
}

static gasm *kft_hook_asm(tree hook, tree fn, tree ra)
{
	vec<tree, va_gc> *inputs = NULL, *clobbers = NULL;
	const struct kft_asm_abi *abi = kft_asm_abi;
	const char *load = abi->load_fn;
	const char *const *clobber = abi->clobbers;
	unsigned int i, n = ARRAY_SIZE(abi->clobbers);
	gasm *stmt;
	char *text;

	if (hook == kft_exit_decl) {
		clobber = abi->exit_clobbers;
		n = ARRAY_SIZE(abi->exit_clobbers);
	}
	if (abi->load_far && DECL_WEAK(current_function_decl))
		load = abi->load_far;
	text = concat(load, IDENTIFIER_POINTER(DECL_NAME(hook)), NULL);
	vec_safe_push(inputs, kft_asm_operand(abi->ra, ra));
	vec_safe_push(inputs, kft_asm_operand("i", fn));
	for (i = 0; i < n && clobber[i]; i++) {
		const char *c = clobber[i];
		tree str = build_string(strlen(c) + 1, c);

		vec_safe_push(clobbers, build_tree_list(NULL_TREE, str));
	}
	stmt = gimple_build_asm_vec(ggc_strdup(text), inputs, NULL, clobbers,
				    NULL);
	free(text);
	gimple_asm_set_volatile(stmt, true);
	return stmt;
}

/*
 * Whether this function's hook calls are kft_hook_asm()'s: on a target
 * with an entry in kft_asm_abis, and on x86_64 not with frame pointers (an
 * asm call cannot make GCC set up the frame before it; arm64's thunks make
 * a frame record of their own).
 */
static bool kft_use_asm(void)
{
	static bool looked;
	unsigned int i;

	if (!looked) {
		for (i = 0; i < ARRAY_SIZE(kft_asm_abis); i++)
			if (lookup_attribute_spec(get_identifier(kft_asm_abis[i].attr)))
				kft_asm_abi = &kft_asm_abis[i];
		looked = true;
	}
	if (!kft_asm_abi || TYPE_PRECISION(ptr_type_node) != 64)
		return false;
	return kft_asm_abi->frame_pointer || flag_omit_frame_pointer;
}

/* ra = __builtin_return_address(0) */
static gimple_seq kft_return_address(tree *ra)
{
	gimple_seq seq = NULL;
	gcall *call;

	*ra = make_ssa_name(ptr_type_node);
	call = gimple_build_call(builtin_decl_implicit(BUILT_IN_RETURN_ADDRESS),
				 1, integer_zero_node);
	gimple_call_set_lhs(call, *ra);
	gimple_seq_add_stmt(&seq, call);
	return seq;
}

/*
 * HOOK(&this function, __builtin_return_address(0)), with the return
 * address read here, or the one read at entry (entry_ra) if given.
 */
static gimple_seq kft_hook_call(tree hook, tree entry_ra)
{
	tree fn = build_fold_addr_expr(current_function_decl);
	tree ra = entry_ra;
	gimple_seq seq = NULL;

	if (!ra)
		seq = kft_return_address(&ra);
	if (kft_use_asm()) {
		ra = kft_asm_ra(&seq, ra);
		gimple_seq_add_stmt(&seq, kft_hook_asm(hook, fn, ra));
		return seq;
	}
	gimple_seq_add_stmt(&seq, gimple_build_call(hook, 2, fn, ra));
	return seq;
}

static unsigned int kft_instrument_execute(void)
{
	tree ra, exit_ra;
	gimple_seq entry;
	basic_block bb;
	edge_iterator ei;
	edge e;

	if (!kft_enter_decl) {
		kft_enter_decl = kft_hook_decl("__cyg_profile_func_enter");
		kft_exit_decl = kft_hook_decl("__cyg_profile_func_exit");
	}

	/*
	 * No call is marked as a tail call yet (the tail-call pass comes
	 * after this one); were one, the exit hook put after it would be
	 * skipped.
	 */
	FOR_EACH_BB_FN(bb, cfun) {
		gimple_stmt_iterator gsi;

		for (gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
			if (is_gimple_call(gsi_stmt(gsi)))
				gimple_call_set_tail(as_a_gcall(gsi_stmt(gsi)),
						     false);
	}

	/* The entry's return address, for the exits too where the ABI asks. */
	entry = kft_return_address(&ra);
	if (!kft_use_asm() || !kft_asm_abi->ra_at_entry)
		exit_ra = NULL_TREE;
	else
		exit_ra = ra;

	FOR_EACH_EDGE(e, ei, EXIT_BLOCK_PTR_FOR_FN(cfun)->preds) {
		gimple_stmt_iterator gsi = gsi_last_bb(e->src);

		if (gsi_end_p(gsi) || gimple_code(gsi_stmt(gsi)) != GIMPLE_RETURN)
			continue;
		gsi_insert_seq_before(&gsi, kft_hook_call(kft_exit_decl, exit_ra),
				      GSI_SAME_STMT);
	}
	gimple_seq_add_seq(&entry, kft_hook_call(kft_enter_decl, ra));
	gsi_insert_seq_on_edge_immediate(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(cfun)),
					 entry);

	/* The new calls read and write memory: their virtual operands. */
	mark_virtual_operands_for_renaming(cfun);
	return TODO_update_ssa;
}

static bool kft_instrument_gate(void)
{
	tree attrs = DECL_ATTRIBUTES(current_function_decl);

	return !lookup_attribute("no_instrument_function", attrs) &&
	       !lookup_attribute("naked", attrs);
}

#define PASS_NAME kft_instrument
#define PROPERTIES_REQUIRED (PROP_cfg | PROP_ssa)
#define TODO_FLAGS_FINISH (TODO_verify_ssa | TODO_verify_stmts | \
			   TODO_rebuild_cgraph_edges)
#include "gcc-generate-gimple-pass.h"

__visible int plugin_init(struct plugin_name_args *plugin_info,
			  struct plugin_gcc_version *version)
{
	const char * const plugin_name = plugin_info->base_name;

	/* After inlining, before "tailc" makes calls before a return jumps. */
	PASS_INFO(kft_instrument, "tailc", 1, PASS_POS_INSERT_BEFORE);

	if (!plugin_default_version_check(version, &gcc_version)) {
		error(G_("incompatible gcc/plugin versions"));
		return 1;
	}
	register_callback(plugin_name, PLUGIN_INFO, NULL, &kft_plugin_info);
	register_callback(plugin_name, PLUGIN_REGISTER_GGC_ROOTS, NULL,
			  (void *)kft_ggc_roots);
	register_callback(plugin_name, PLUGIN_PASS_MANAGER_SETUP, NULL,
			  &kft_instrument_pass_info);
	return 0;
}
