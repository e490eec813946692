#include "registration.hpp"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "runtime_abi.hpp"

using namespace llvm;

namespace cohort_loops {

void emit_registrations(Module& module, const std::vector<kernel_outcome>& outcomes) {
  if (outcomes.empty()) return;
  LLVMContext& context = module.getContext();
  PointerType* ptr = PointerType::getUnqual(context);
  Type* void_type = Type::getVoidTy(context);
  FunctionCallee lowered = module.getOrInsertFunction(register_kernel_symbol, void_type, ptr, ptr, ptr);
  FunctionCallee lowered_resuming =
      module.getOrInsertFunction(register_resuming_kernel_symbol, void_type, ptr, ptr, ptr, Type::getInt32Ty(context));
  FunctionCallee lowered_warp =
      module.getOrInsertFunction(register_warp_kernel_symbol, void_type, ptr, ptr, ptr, Type::getInt32Ty(context));
  FunctionCallee copy_checks = module.getOrInsertFunction(register_copy_checks_symbol, void_type, ptr);
  FunctionCallee declined = module.getOrInsertFunction(register_fallback_symbol, void_type, ptr, ptr, ptr);
  Function* ctor = Function::Create(FunctionType::get(void_type, false), GlobalValue::InternalLinkage,
                                    "cohort.loops.register", module);
  IRBuilder<> b(BasicBlock::Create(context, "entry", ctor));
  for (const kernel_outcome& k : outcomes) {
    Value* name = b.CreateGlobalString(k.name, "cohort.loops.name");
    if (k.block && k.per_warp)
      b.CreateCall(lowered_warp, {k.kernel, k.block, name, b.getInt32(static_cast<unsigned>(*k.per_warp))});
    else if (k.block && k.levels)
      b.CreateCall(lowered_resuming, {k.kernel, k.block, name, b.getInt32(k.levels)});
    else if (k.block)
      b.CreateCall(lowered, {k.kernel, k.block, name});
    else
      b.CreateCall(declined, {k.kernel, name, b.CreateGlobalString(k.reason, "cohort.loops.reason")});
    if (k.block && k.copy_checks) b.CreateCall(copy_checks, {k.kernel});
  }
  b.CreateRetVoid();
  appendToGlobalCtors(module, ctor, 65535);
}

}  // namespace cohort_loops
