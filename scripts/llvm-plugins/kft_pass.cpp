// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel Function Trace: Clang's hook calls as inline asm that keeps the
 * caller's registers, the convention of scripts/gcc-plugins/kft_plugin.c.
 *
 * Clang's -finstrument-functions-after-inlining marks each function it
 * instruments with an "instrument-function-{entry,exit}-inlined"
 * attribute, and a codegen pass turns those into calls of the hooks: real
 * calls, around which a function saves its values in callee-saved
 * registers and leaf functions set up frames, though the calls are NOPs
 * while KFT is idle (arm64 tinyconfig -O2: 9.56 million of the 16.02
 * million instructions an idle KFT kernel adds to its boot).
 *
 * This pass runs after the optimizer (OptimizerLastEP, after inlining, as
 * late as a plugin can): for each function so marked it takes the
 * attributes off and puts in the calls itself, as inline asm that clobbers
 * only what the call must: the entry's next to nothing, the exit's every
 * caller-saved register but the return value's, which is all that is live
 * there.  The hooks save every other register they use (asm/kft.h).
 * notrace functions carry no attribute and are left alone, as are naked
 * ones, and on x86_64 those with a frame pointer (an asm call cannot make
 * the compiler set up the frame before it) and any whose symbol is not a
 * plain C name: codegen calls the hooks there.
 *
 * Built against the LLVM of the Clang that loads it (scripts/llvm-plugins/
 * Makefile) and loaded through CC_FLAGS_FTRACE (CONFIG_KFT_AFTER_INLINING),
 * so every ftrace opt-out keeps it out of the same code.
 */

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#if LLVM_VERSION_MAJOR >= 17
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#endif

#include <cctype>
#include <string>

using namespace llvm;

namespace {

const char kft_entry_attr[] = "instrument-function-entry-inlined";
const char kft_exit_attr[] = "instrument-function-exit-inlined";

/*
 * A hook call per target: the function's address an immediate, so that it
 * is not kept in a register across the body; the return address in the
 * register the hook takes it in, which the hook leaves as it found it.
 */
struct kft_asm_abi {
	const char *load_fn;	/* FN in the hook's first argument */
	const char *load_far;	/* the same for a weak function, if needed */
	const char *constraints;	/* the return address, then clobbers */
	const char *exit_constraints;	/* the same, the exit's */
	bool ra_changed;	/* the hook may change the return address's register */
	bool ra_at_entry;	/* the exits' return address is the entry's */
	bool frame_pointer;	/* also where a frame pointer is kept */
};

/*
 * x86_64: the entry hook is __no_caller_saved_registers, which Clang's
 * lets change the arguments' registers, %rdi and %rsi; the exit's a thunk
 * that saves %rax and %rdx, the return value, and %rsi.
 */
const kft_asm_abi kft_x86_64 = {
	"movq $$FN, %rdi\n\tcall ", nullptr,
	"={rsi},0,~{rdi},~{dirflag},~{fpsr},~{flags}",
	"={rsi},0,~{rdi},~{rcx},~{r8},~{r9},~{r10},~{r11},~{dirflag},~{fpsr},~{flags}",
	true, false, false,
};

/*
 * arm64: the hooks are thunks (asm/kft.h) that take their arguments in x9
 * and x10, so that a function's own arguments stay where they are, and
 * save every register but x9, the x30 of the BL, and x16 and x17, which a
 * module's PLT may change on its way; the exit's saves x0 and x1 (the
 * return value), x10 and x18.  ADR reaches 1 MB, the function's
 * own code; a weak function's symbol may be a strong definition anywhere
 * in the kernel, which ADRP reaches.  The return address is read once, at
 * entry: reading it strips it (XPACLRI) each time.
 */
const kft_asm_abi kft_arm64 = {
	"adr x9, FN\n\tbl ", "adrp x9, FN\n\tadd x9, x9, :lo12:FN\n\tbl ",
	"{x10},~{x9},~{x16},~{x17},~{lr},~{cc}",
	"{x10},~{x2},~{x3},~{x4},~{x5},~{x6},~{x7},~{x8},~{x9},~{x11},~{x12},"
	"~{x13},~{x14},~{x15},~{x16},~{x17},~{lr},~{cc}",
	false, true, true,
};

const kft_asm_abi *kft_abi_of(const Module &M)
{
	Triple t(M.getTargetTriple());

	switch (t.getArch()) {
	case Triple::x86_64:
		return &kft_x86_64;
	case Triple::aarch64:
		return &kft_arm64;
	default:
		return nullptr;
	}
}

/* A symbol the asm can name as it is: a C identifier. */
bool kft_plain_name(StringRef name)
{
	if (name.empty() || isdigit(static_cast<unsigned char>(name[0])))
		return false;
	for (char c : name)
		if (!isalnum(static_cast<unsigned char>(c)) && c != '_')
			return false;
	return true;
}

bool kft_use_asm(const Function &F, const kft_asm_abi &abi)
{
	if (F.hasFnAttribute(Attribute::Naked) || !kft_plain_name(F.getName()))
		return false;
	return abi.frame_pointer || !F.hasFnAttribute("frame-pointer") ||
	       F.getFnAttribute("frame-pointer").getValueAsString() == "none";
}

InlineAsm *kft_hook_asm(const Function &F, const kft_asm_abi &abi,
			StringRef hook, Type *ptr, bool exit)
{
	const char *load = abi.load_fn;
	std::string text, name = F.getName().str();
	FunctionType *type;
	size_t at;

	if (abi.load_far && F.isWeakForLinker())
		load = abi.load_far;
	text = std::string(load) + hook.str();
	while ((at = text.find("FN")) != std::string::npos)
		text.replace(at, 2, name);
	type = FunctionType::get(abi.ra_changed ? ptr :
				 Type::getVoidTy(F.getContext()), {ptr}, false);
	return InlineAsm::get(type, text,
			      std::string(exit ? abi.exit_constraints :
					  abi.constraints) + ",~{memory}", true);
}

#if LLVM_VERSION_MAJOR >= 20
#define kft_intrinsic Intrinsic::getOrInsertDeclaration
#else
#define kft_intrinsic Intrinsic::getDeclaration
#endif

Value *kft_return_address(IRBuilder<> &b, Module &M)
{
	return b.CreateCall(kft_intrinsic(&M, Intrinsic::returnaddress),
			    {b.getInt32(0)});
}

/*
 * The same, read again from its stack slot: a volatile load, so that it
 * is not merged with the entry's read and kept in a callee-saved register
 * across the body (x86_64: "movq N(%rsp), %rsi" at each exit, as GCC's).
 */
Value *kft_return_address_again(IRBuilder<> &b, Module &M, Type *ptr)
{
	Value *slot = b.CreateCall(kft_intrinsic(&M,
						 Intrinsic::addressofreturnaddress,
						 {ptr}));

	slot = b.CreatePointerCast(slot, PointerType::getUnqual(ptr));
	return b.CreateAlignedLoad(ptr, slot, MaybeAlign(), true);
}

/* The hooks' calls into F, where its attributes asked for them. */
void kft_instrument(Function &F, const kft_asm_abi &abi)
{
	StringRef enter = F.getFnAttribute(kft_entry_attr).getValueAsString();
	StringRef exit = F.getFnAttribute(kft_exit_attr).getValueAsString();
	IRBuilder<> b(&*F.getEntryBlock().getFirstInsertionPt());
	Module &M = *F.getParent();
	Value *ra = kft_return_address(b, M);
	Type *ptr = ra->getType();

	if (!enter.empty())
		b.CreateCall(kft_hook_asm(F, abi, enter, ptr, false), {ra});
	if (!exit.empty()) {
		InlineAsm *call = kft_hook_asm(F, abi, exit, ptr, true);

		for (BasicBlock &bb : F) {
			Instruction *at = bb.getTerminator();

			if (!at || !isa<ReturnInst>(at))
				continue;
			/* A musttail call stays right before its return. */
			if (CallInst *tail = bb.getTerminatingMustTailCall())
				at = tail;
			IRBuilder<> x(at);

			x.CreateCall(call, {abi.ra_at_entry ? ra :
					    kft_return_address_again(x, M, ptr)});
		}
	}
	F.removeFnAttr(kft_entry_attr);
	F.removeFnAttr(kft_exit_attr);
}

struct KftPass : PassInfoMixin<KftPass> {
	PreservedAnalyses run(Module &M, ModuleAnalysisManager &)
	{
		const kft_asm_abi *abi = kft_abi_of(M);
		bool changed = false;

		if (!abi)
			return PreservedAnalyses::all();
		for (Function &F : M) {
			if (F.isDeclaration() ||
			    (!F.hasFnAttribute(kft_entry_attr) &&
			     !F.hasFnAttribute(kft_exit_attr)) ||
			    !kft_use_asm(F, *abi))
				continue;
			kft_instrument(F, *abi);
			changed = true;
		}
		return changed ? PreservedAnalyses::none() :
				 PreservedAnalyses::all();
	}
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo()
{
	return { LLVM_PLUGIN_API_VERSION, "kft", LLVM_VERSION_STRING,
		 [](PassBuilder &pb) {
			 pb.registerOptimizerLastEPCallback(
				 [](ModulePassManager &mpm, OptimizationLevel
#if LLVM_VERSION_MAJOR >= 20
				    , ThinOrFullLTOPhase
#endif
				 ) { mpm.addPass(KftPass()); });
		 } };
}
