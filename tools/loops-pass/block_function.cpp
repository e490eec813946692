#include "block_function.hpp"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "runtime_abi.hpp"
#include "step_function.hpp"

using namespace llvm;

namespace cohort_loops {

namespace {

// Called by C++ exactly as the kernel is (same type, same parameter
// attributes: byval and the like), compiled for the same target.
Function* declare_block_function(Function& kernel) {
  Module& module = *kernel.getParent();
  Function* block = Function::Create(kernel.getFunctionType(), GlobalValue::InternalLinkage,
                                     kernel.getName() + ".cohort.block", module);
  for (unsigned i = 0; i < kernel.arg_size(); ++i)
    block->addParamAttrs(i, AttrBuilder(module.getContext(), kernel.getAttributes().getParamAttrs(i)));
  for (StringRef copied : {"target-cpu", "target-features", "tune-cpu", "frame-pointer"})
    if (kernel.hasFnAttribute(copied)) block->addFnAttr(kernel.getFnAttribute(copied));
  block->setUWTableKind(kernel.getUWTableKind());
  // Its own subprogram, so that the step function's locations inline into it.
  if (DISubprogram* program = kernel.getSubprogram())
    block->setSubprogram(MDNode::replaceWithDistinct(program->clone()));
  return block;
}

}  // namespace

Function* build_block_function(Function& kernel, const step_function& step) {
  Function* block = declare_block_function(kernel);
  LLVMContext& context = kernel.getContext();
  Module& module = *kernel.getParent();
  Type* i8 = Type::getInt8Ty(context);
  Type* i32 = Type::getInt32Ty(context);
  Type* i64 = Type::getInt64Ty(context);
  PointerType* ptr = PointerType::getUnqual(context);

  auto* entry = BasicBlock::Create(context, "entry", block);
  auto* region = BasicBlock::Create(context, "region", block);
  auto* thread_head = BasicBlock::Create(context, "thread", block);
  auto* live_check = BasicBlock::Create(context, "live", block);
  auto* run = BasicBlock::Create(context, "run", block);
  auto* stopped = BasicBlock::Create(context, "stopped", block);
  auto* compare = BasicBlock::Create(context, "compare", block);
  auto* other_site = BasicBlock::Create(context, "other_site", block);
  auto* next = BasicBlock::Create(context, "next", block);
  auto* region_end = BasicBlock::Create(context, "region_end", block);
  auto* done = BasicBlock::Create(context, "done", block);

  IRBuilder<> b(entry);
  FunctionCallee begin = module.getOrInsertFunction(begin_block_symbol, ptr, i64);
  FunctionCallee check_site = module.getOrInsertFunction(check_site_symbol, Type::getVoidTy(context), ptr, i32, i32);
  Value* ctx = b.CreateCall(begin, {b.getInt64(step.frame_bytes)}, "ctx");
  auto field = [&](unsigned offset, Type* type, const char* name) {
    return b.CreateLoad(type, b.CreateConstInBoundsGEP1_64(i8, ctx, offset), name);
  };
  Value* position = field(position_offset, ptr, "position");
  Value* frames = field(frames_offset, ptr, "frames");
  Value* resumes = field(resume_offset, ptr, "resumes");
  Value* dim_x = field(dim_x_offset, i32, "dim_x");
  Value* dim_y = field(dim_y_offset, i32, "dim_y");
  Value* count = field(count_offset, i32, "count");
  b.CreateBr(region);

  Constant* none = b.getInt32(exited);
  b.SetInsertPoint(region);
  b.CreateBr(thread_head);

  b.SetInsertPoint(thread_head);
  PHINode* rank = b.CreatePHI(i32, 2, "rank");
  PHINode* x = b.CreatePHI(i32, 2, "x");
  PHINode* y = b.CreatePHI(i32, 2, "y");
  PHINode* z = b.CreatePHI(i32, 2, "z");
  PHINode* first = b.CreatePHI(i32, 2, "first");  // the first thread of this region at a barrier
  for (PHINode* phi : {rank, x, y, z, first}) phi->addIncoming(phi == first ? none : b.getInt32(0), region);
  b.CreateCondBr(b.CreateICmpULT(rank, count), live_check, region_end);

  b.SetInsertPoint(live_check);
  Value* rank64 = b.CreateZExt(rank, i64);
  Value* resume_slot = b.CreateInBoundsGEP(i32, resumes, rank64, "resume_slot");
  Value* resume = b.CreateLoad(i32, resume_slot, "resume");
  b.CreateCondBr(b.CreateICmpEQ(resume, none), next, run);

  b.SetInsertPoint(run);
  b.CreateStore(x, position);
  b.CreateStore(y, b.CreateConstInBoundsGEP1_64(i8, position, 4));
  b.CreateStore(z, b.CreateConstInBoundsGEP1_64(i8, position, 8));
  b.CreateStore(b.CreateSub(rank, x), b.CreateConstInBoundsGEP1_64(i8, position, 12));  // the row's first rank
  Value* frame = b.CreateInBoundsGEP(i8, frames, b.CreateMul(rank64, b.getInt64(step.frame_bytes)), "frame");
  SmallVector<Value*, 8> args;
  for (Argument& a : block->args()) args.push_back(&a);
  args.push_back(resume);
  args.push_back(frame);
  CallInst* call = b.CreateCall(step.function, args, "stopped_at");
  for (unsigned i = 0; i < kernel.arg_size(); ++i)
    for (Attribute attribute : kernel.getAttributes().getParamAttrs(i)) call->addParamAttr(i, attribute);
  if (DISubprogram* program = block->getSubprogram())
    call->setDebugLoc(DILocation::get(context, program->getLine(), 0, program));
  b.CreateStore(call, resume_slot);
  b.CreateCondBr(b.CreateICmpEQ(call, none), next, stopped);

  b.SetInsertPoint(stopped);
  b.CreateCondBr(b.CreateICmpEQ(first, none), next, compare);

  b.SetInsertPoint(compare);  // the same source_location record: the usual case
  Value* first_frame = b.CreateInBoundsGEP(i8, frames, b.CreateMul(b.CreateZExt(first, i64), b.getInt64(step.frame_bytes)));
  Value* same = b.CreateICmpEQ(b.CreateLoad(ptr, first_frame), b.CreateLoad(ptr, frame));
  b.CreateCondBr(same, next, other_site);

  b.SetInsertPoint(other_site);  // the runtime compares the sites field by field, and fails the launch if they differ
  b.CreateCall(check_site, {ctx, first, rank});
  b.CreateBr(next);

  b.SetInsertPoint(next);
  PHINode* next_first = b.CreatePHI(i32, 5, "next_first");
  next_first->addIncoming(first, live_check);
  next_first->addIncoming(first, run);
  next_first->addIncoming(rank, stopped);
  next_first->addIncoming(first, compare);
  next_first->addIncoming(first, other_site);
  Value* x1 = b.CreateAdd(x, b.getInt32(1));
  Value* row_done = b.CreateICmpEQ(x1, dim_x);
  Value* y1 = b.CreateAdd(y, b.CreateZExt(row_done, i32));
  Value* plane_done = b.CreateICmpEQ(y1, dim_y);
  rank->addIncoming(b.CreateAdd(rank, b.getInt32(1)), next);
  x->addIncoming(b.CreateSelect(row_done, b.getInt32(0), x1), next);
  y->addIncoming(b.CreateSelect(plane_done, b.getInt32(0), y1), next);
  z->addIncoming(b.CreateAdd(z, b.CreateZExt(plane_done, i32)), next);
  first->addIncoming(next_first, next);
  b.CreateBr(thread_head);

  b.SetInsertPoint(region_end);  // another region while some thread waits at a barrier
  b.CreateCondBr(b.CreateICmpNE(first, none), region, done);

  b.SetInsertPoint(done);
  b.CreateRetVoid();

  InlineFunctionInfo inlining;
  if (InlineFunction(*call, inlining).isSuccess()) step.function->eraseFromParent();
  return block;
}

}  // namespace cohort_loops
