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
 * On x86_64 the hooks save every register they use (no_caller_saved_registers,
 * kft_arch_hook_abi), and each call is inline asm that clobbers only the
 * two it passes: the function around it keeps its values where the
 * untraced one does, instead of saving them across two calls that are
 * NOPs while KFT is idle (a leaf like strncmp() no longer pushes three
 * registers).  Not with frame pointers: an asm call cannot make GCC set
 * up the frame before it.
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
 * The call as x86_64 inline asm: the function's address an immediate, so
 * GCC cannot keep it in a register across the body; the return address in
 * %rsi, which the hook leaves as it found it, like every register but the
 * %rdi the asm loads.
 */
static gasm *kft_hook_asm(tree hook, tree fn, tree ra)
{
	vec<tree, va_gc> *inputs = NULL, *clobbers = NULL;
	char *text = concat("movq $%c1, %%rdi\n\tcall ",
			    IDENTIFIER_POINTER(DECL_NAME(hook)), NULL);
	gasm *stmt;

	vec_safe_push(inputs, kft_asm_operand("S", ra));
	vec_safe_push(inputs, kft_asm_operand("i", fn));
	vec_safe_push(clobbers, build_tree_list(NULL_TREE,
						build_string(4, "rdi")));
	stmt = gimple_build_asm_vec(ggc_strdup(text), inputs, NULL, clobbers,
				    NULL);
	free(text);
	gimple_asm_set_volatile(stmt, true);
	return stmt;
}

/* Whether this function's hook calls are kft_hook_asm()'s. */
static bool kft_use_asm(void)
{
	static const struct attribute_spec *save_all;
	static bool looked;
	tree name;

	if (!looked) {
		name = get_identifier("no_caller_saved_registers");
		save_all = lookup_attribute_spec(name);
		looked = true;
	}
	return save_all && TYPE_PRECISION(ptr_type_node) == 64 &&
	       flag_omit_frame_pointer;
}

/* HOOK(&this function, __builtin_return_address(0)) */
static gimple_seq kft_hook_call(tree hook)
{
	tree fn = build_fold_addr_expr(current_function_decl);
	tree ra = make_ssa_name(ptr_type_node);
	gimple_seq seq = NULL;
	gcall *call;

	call = gimple_build_call(builtin_decl_implicit(BUILT_IN_RETURN_ADDRESS),
				 1, integer_zero_node);
	gimple_call_set_lhs(call, ra);
	gimple_seq_add_stmt(&seq, call);
	if (kft_use_asm()) {
		gimple_seq_add_stmt(&seq, kft_hook_asm(hook, fn, ra));
		return seq;
	}
	gimple_seq_add_stmt(&seq, gimple_build_call(hook, 2, fn, ra));
	return seq;
}

static unsigned int kft_instrument_execute(void)
{
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

	FOR_EACH_EDGE(e, ei, EXIT_BLOCK_PTR_FOR_FN(cfun)->preds) {
		gimple_stmt_iterator gsi = gsi_last_bb(e->src);

		if (gsi_end_p(gsi) || gimple_code(gsi_stmt(gsi)) != GIMPLE_RETURN)
			continue;
		gsi_insert_seq_before(&gsi, kft_hook_call(kft_exit_decl),
				      GSI_SAME_STMT);
	}
	gsi_insert_seq_on_edge_immediate(single_succ_edge(ENTRY_BLOCK_PTR_FOR_FN(cfun)),
					 kft_hook_call(kft_enter_decl));

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
