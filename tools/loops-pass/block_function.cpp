#include "block_function.hpp"

#include "grid_resume.hpp"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimpleLoopUnswitch.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "prefix_split.hpp"
#include "row_versions.hpp"
#include "runtime_abi.hpp"
#include "step_function.hpp"
#include "thread_rounds.hpp"

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

// What both shapes of block function read from the runtime's record.
struct block_record_fields {
  Value* ctx;
  Value* position;
  Value* frames;
  Value* resumes;
  Value* dim_x;
  Value* dim_y;
  Value* dim_z;
  Value* count;
  Value* order;    // null, or the order of the block's threads drawn for a shuffled schedule
  Value* lane_in;  // the lane arrays of shuffles lowered to them (lane_exchange.hpp)
  Value* lane_arg;
  Value* lane_out;
};

// The fields of the record at `ctx`.
block_record_fields read_block_record(IRBuilder<>& b, Value* ctx) {
  Type* i8 = b.getInt8Ty();
  Type* i32 = b.getInt32Ty();
  PointerType* ptr = b.getPtrTy();
  block_record_fields f{};
  f.ctx = ctx;
  auto field = [&](unsigned offset, Type* type, const char* name) {
    return b.CreateLoad(type, b.CreateConstInBoundsGEP1_64(i8, f.ctx, offset), name);
  };
  f.position = field(position_offset, ptr, "position");
  f.frames = field(frames_offset, ptr, "frames");
  f.resumes = field(resume_offset, ptr, "resumes");
  f.dim_x = field(dim_x_offset, i32, "dim_x");
  f.dim_y = field(dim_y_offset, i32, "dim_y");
  f.dim_z = field(dim_z_offset, i32, "dim_z");
  f.count = field(count_offset, i32, "count");
  f.order = field(order_offset, ptr, "order");
  f.lane_in = field(lane_in_offset, ptr, "lane_in");
  f.lane_arg = field(lane_arg_offset, ptr, "lane_arg");
  f.lane_out = field(lane_out_offset, ptr, "lane_out");
  return f;
}

block_record_fields begin_block(IRBuilder<>& b, Module& module, std::uint64_t frame_bytes) {
  FunctionCallee begin = module.getOrInsertFunction(begin_block_symbol, b.getPtrTy(), b.getInt64Ty());
  return read_block_record(b, b.CreateCall(begin, {b.getInt64(frame_bytes)}, "ctx"));
}

// A kernel with grid barriers: the block's own frames and kept store (grid_resume.hpp).
block_record_fields begin_block(IRBuilder<>& b, Module& module, const step_function& step) {
  if (step.level_barriers == 0) return begin_block(b, module, step.frame_bytes);
  FunctionCallee begin =
      module.getOrInsertFunction(begin_grid_block_symbol, b.getPtrTy(), b.getInt64Ty(), b.getInt64Ty());
  return read_block_record(
      b, b.CreateCall(begin, {b.getInt64(step.frame_bytes), b.getInt64(kept_store_bytes(module, step))}, "ctx"));
}

// The dispatch's way to point `point`: its region, or where a grid or cluster
// barrier returns to the scheduler, unless the block function has just resumed there.
BasicBlock* way_to_point(const step_function& step, const block_record_fields& f, Value* kept, PHINode* resumed,
                         BasicBlock* region, unsigned point) {
  if (point == 0 || !step.level_sites[point - 1]) return region;
  LLVMContext& context = region->getContext();
  Function* function = region->getParent();
  auto* grid = BasicBlock::Create(context, "grid" + Twine(point), function);
  auto* suspend = BasicBlock::Create(context, "suspend" + Twine(point), function);
  IRBuilder<> at(grid);
  at.CreateCondBr(resumed, region, suspend);
  at.SetInsertPoint(suspend);
  suspend_block(at, step, f.ctx, kept, point, region);
  return grid;
}

// A loop over threadIdx.x whose body may run in rounds (thread_rounds.hpp).
void mark_thread_counter(PHINode* x) { x->setMetadata(thread_counter_metadata, MDNode::get(x->getContext(), {})); }

// threadIdx and the row where code the step's parameters do not reach reads them.
void store_position(IRBuilder<>& b, Value* position, Value* x, Value* y, Value* z, Value* row) {
  Type* i8 = b.getInt8Ty();
  b.CreateStore(x, position);
  b.CreateStore(y, b.CreateConstInBoundsGEP1_64(i8, position, 4));
  b.CreateStore(z, b.CreateConstInBoundsGEP1_64(i8, position, 8));
  b.CreateStore(row, b.CreateConstInBoundsGEP1_64(i8, position, 12));
}

// A tile's fold's function over the lane arrays (lane_point::lanes), or null.
Value* fold_lanes(IRBuilder<>& b, const lane_point& p) {
  return p.lanes ? static_cast<Value*>(p.lanes) : ConstantPointerNull::get(b.getPtrTy());
}

// A lowered warp operation's mask: its constant, or the block function's
// parameter (the kernel's) extended to 64 bits; a tile's size.
Value* lane_mask(IRBuilder<>& b, const lane_point& p) {
  if (!p.parameter) return b.getInt64(p.mask);
  Value* parameter = b.GetInsertBlock()->getParent()->getArg(p.parameter->index);
  return p.parameter->sign_extended ? b.CreateSExtOrTrunc(parameter, b.getInt64Ty())
                                    : b.CreateZExtOrTrunc(parameter, b.getInt64Ty());
}

// Where every thread stopped at collective `point`: its groups completed
// through their records (cohort_loops_exchange), or a shuffle lowered to the
// lane arrays exchanged between them (cohort_loops_lane_exchange).
void complete_collective(IRBuilder<>& b, Module& module, const step_function& step, const block_record_fields& f,
                         unsigned point) {
  Type* void_type = b.getVoidTy();
  if (step.collective[point]) {
    b.CreateCall(module.getOrInsertFunction(exchange_symbol, void_type, b.getPtrTy()), {f.ctx});
  } else if (const std::optional<lane_point>& lanes = step.lane_points[point]) {
    FunctionCallee exchange =
        module.getOrInsertFunction(lane_exchange_symbol, void_type, b.getPtrTy(), b.getInt32Ty(), b.getInt32Ty(),
                                   b.getInt64Ty(), b.getPtrTy(), b.getInt1Ty(), b.getPtrTy());
    b.CreateCall(exchange, {f.ctx, b.getInt32(lanes->kind), b.getInt32(lanes->size), lane_mask(b, *lanes), lanes->where,
                            b.getInt1(lanes->uniform_arg), fold_lanes(b, *lanes)});
  }
}

CallInst* call_step(IRBuilder<>& b, Function& kernel, Function& block, const step_function& step,
                    const block_record_fields& f, Value* resume, Value* frame, Value* x, Value* y, Value* z, Value* row,
                    Value* kept = nullptr, Value* keep = nullptr) {
  SmallVector<Value*, 12> args;
  for (unsigned i = 0; i < kernel.arg_size(); ++i) args.push_back(block.getArg(i));
  Value* none = ConstantPointerNull::get(b.getPtrTy());
  args.append({resume, frame, x, y, z, row, kept ? kept : none, keep ? keep : none, f.lane_in, f.lane_arg, f.lane_out});
  CallInst* call = b.CreateCall(step.function, args, "stopped_at");
  for (unsigned i = 0; i < kernel.arg_size(); ++i)
    for (Attribute attribute : kernel.getAttributes().getParamAttrs(i)) call->addParamAttr(i, attribute);
  if (DISubprogram* program = block.getSubprogram())
    call->setDebugLoc(DILocation::get(kernel.getContext(), program->getLine(), 0, program));
  return call;
}

// A kernel without barriers: one region, every thread run once, z, y, x
// nested with threadIdx.x innermost, the loop the vectorizer may take; then
// the worker's next block in the same call, while the runtime has one that
// needs nothing but its index (cohort_loops_next_block): the runner's
// sequencing and begin_block once per call, not per block. `per_block` is
// where the block's uniform values are computed (blockIdx changes between
// blocks, so not in the entry).
CallInst* build_thread_nest(Function& kernel, Function& block, const step_function& step, BasicBlock*& x_loop,
                            Value*& dim_x, BasicBlock*& per_block) {
  LLVMContext& context = kernel.getContext();
  auto* entry = BasicBlock::Create(context, "entry", &block);
  auto* block_start = BasicBlock::Create(context, "block", &block);
  auto* z_head = BasicBlock::Create(context, "z", &block);
  auto* y_head = BasicBlock::Create(context, "y", &block);
  auto* row_start = BasicBlock::Create(context, "row", &block);
  auto* x_head = BasicBlock::Create(context, "x", &block);
  auto* body = BasicBlock::Create(context, "thread", &block);
  auto* row_end = BasicBlock::Create(context, "row_end", &block);
  auto* plane_end = BasicBlock::Create(context, "plane_end", &block);
  auto* done = BasicBlock::Create(context, "done", &block);
  auto* finish = BasicBlock::Create(context, "finish", &block);
  IRBuilder<> b(entry);
  const block_record_fields f = begin_block(b, *kernel.getParent(), 0);
  b.CreateBr(block_start);
  per_block = block_start;

  b.SetInsertPoint(block_start);
  b.CreateBr(z_head);

  b.SetInsertPoint(z_head);
  PHINode* z = b.CreatePHI(b.getInt32Ty(), 2, "z");
  z->addIncoming(b.getInt32(0), block_start);
  b.CreateCondBr(b.CreateICmpULT(z, f.dim_z), y_head, done);

  b.SetInsertPoint(y_head);
  PHINode* y = b.CreatePHI(b.getInt32Ty(), 2, "y");
  y->addIncoming(b.getInt32(0), z_head);
  b.CreateCondBr(b.CreateICmpULT(y, f.dim_y), row_start, plane_end);

  b.SetInsertPoint(row_start);
  Value* row = b.CreateMul(b.CreateAdd(b.CreateMul(z, f.dim_y), y), f.dim_x, "row");
  b.CreateBr(x_head);

  b.SetInsertPoint(x_head);
  PHINode* x = b.CreatePHI(b.getInt32Ty(), 2, "x");
  x->addIncoming(b.getInt32(0), row_start);
  if (!step.position_read) mark_thread_counter(x);
  b.CreateCondBr(b.CreateICmpULT(x, f.dim_x), body, row_end);

  b.SetInsertPoint(body);
  if (step.position_read) store_position(b, f.position, x, y, z, row);
  CallInst* call = call_step(b, kernel, block, step, f, b.getInt32(0), f.frames, x, y, z, row);
  x_loop = x_head;
  dim_x = f.dim_x;
  x->addIncoming(b.CreateAdd(x, b.getInt32(1)), body);
  b.CreateBr(x_head);

  b.SetInsertPoint(row_end);
  y->addIncoming(b.CreateAdd(y, b.getInt32(1)), row_end);
  b.CreateBr(y_head);

  b.SetInsertPoint(plane_end);
  z->addIncoming(b.CreateAdd(z, b.getInt32(1)), plane_end);
  b.CreateBr(z_head);

  b.SetInsertPoint(done);
  FunctionCallee next_block = kernel.getParent()->getOrInsertFunction(next_block_symbol, b.getInt32Ty(), b.getPtrTy());
  Value* more = b.CreateCall(next_block, {f.ctx}, "next_block");
  b.CreateCondBr(b.CreateICmpNE(more, b.getInt32(0)), block_start, finish);

  b.SetInsertPoint(finish);
  b.CreateRetVoid();
  return call;
}

// A kernel with barriers: regions until no thread waits at one.
CallInst* build_region_loop(Function& kernel, Function& block, const step_function& step) {
  LLVMContext& context = kernel.getContext();
  Module& module = *kernel.getParent();
  Type* i8 = Type::getInt8Ty(context);
  Type* i32 = Type::getInt32Ty(context);
  Type* i64 = Type::getInt64Ty(context);
  PointerType* ptr = PointerType::getUnqual(context);

  auto* entry = BasicBlock::Create(context, "entry", &block);
  auto* region = BasicBlock::Create(context, "region", &block);
  auto* rows = BasicBlock::Create(context, "rows", &block);
  auto* row_start = BasicBlock::Create(context, "row_start", &block);
  auto* thread_head = BasicBlock::Create(context, "thread", &block);
  auto* row_end = BasicBlock::Create(context, "row_end", &block);
  auto* live_check = BasicBlock::Create(context, "live", &block);
  auto* run = BasicBlock::Create(context, "run", &block);
  auto* stopped = BasicBlock::Create(context, "stopped", &block);
  auto* compare = BasicBlock::Create(context, "compare", &block);
  auto* other_site = BasicBlock::Create(context, "other_site", &block);
  auto* next = BasicBlock::Create(context, "next", &block);
  auto* region_end = BasicBlock::Create(context, "region_end", &block);
  auto* done = BasicBlock::Create(context, "done", &block);

  IRBuilder<> b(entry);
  FunctionCallee check_site = module.getOrInsertFunction(check_site_symbol, Type::getVoidTy(context), ptr, i32, i32);
  const block_record_fields f = begin_block(b, module, step.frame_bytes);
  b.CreateBr(region);

  // Rows of threadIdx.x, each a loop over x: (y, z) advance once per row.
  Constant* none = b.getInt32(exited);
  b.SetInsertPoint(region);
  b.CreateBr(rows);

  b.SetInsertPoint(rows);
  PHINode* row = b.CreatePHI(i32, 2, "row");  // the rank of the row's first thread
  PHINode* y = b.CreatePHI(i32, 2, "y");
  PHINode* z = b.CreatePHI(i32, 2, "z");
  PHINode* row_first = b.CreatePHI(i32, 2, "row_first");
  PHINode* row_site = b.CreatePHI(ptr, 2, "row_site");
  for (PHINode* phi : {row, y, z}) phi->addIncoming(b.getInt32(0), region);
  row_first->addIncoming(none, region);
  row_site->addIncoming(ConstantPointerNull::get(ptr), region);
  b.CreateCondBr(b.CreateICmpULT(row, f.count), row_start, region_end);

  b.SetInsertPoint(row_start);
  b.CreateBr(thread_head);

  b.SetInsertPoint(thread_head);
  PHINode* x = b.CreatePHI(i32, 2, "x");
  PHINode* first = b.CreatePHI(i32, 2, "first");            // the first thread of this region at a barrier
  PHINode* first_site = b.CreatePHI(ptr, 2, "first_site");  // the source_location it stopped at
  x->addIncoming(b.getInt32(0), row_start);
  first->addIncoming(row_first, row_start);
  first_site->addIncoming(row_site, row_start);
  b.CreateCondBr(b.CreateICmpULT(x, f.dim_x), live_check, row_end);

  b.SetInsertPoint(live_check);
  Value* rank = b.CreateAdd(row, x, "rank");
  Value* rank64 = b.CreateZExt(rank, i64);
  Value* resume_slot = b.CreateInBoundsGEP(i32, f.resumes, rank64, "resume_slot");
  Value* resume = b.CreateLoad(i32, resume_slot, "resume");
  b.CreateCondBr(b.CreateICmpEQ(resume, none), next, run);

  b.SetInsertPoint(run);
  if (step.position_read) store_position(b, f.position, x, y, z, row);
  Value* frame = b.CreateInBoundsGEP(i8, f.frames, b.CreateMul(rank64, b.getInt64(step.frame_bytes)), "frame");
  CallInst* call = call_step(b, kernel, block, step, f, resume, frame, x, y, z, row);
  b.CreateStore(call, resume_slot);
  b.CreateCondBr(b.CreateICmpEQ(call, none), next, stopped);

  b.SetInsertPoint(stopped);
  Value* site = b.CreateLoad(ptr, frame, "site");
  b.CreateCondBr(b.CreateICmpEQ(first, none), next, compare);

  b.SetInsertPoint(compare);  // the same source_location record: the usual case
  b.CreateCondBr(b.CreateICmpEQ(site, first_site), next, other_site);

  b.SetInsertPoint(other_site);  // the runtime compares the sites field by field, and fails the launch if they differ
  b.CreateCall(check_site, {f.ctx, first, rank});
  b.CreateBr(next);

  b.SetInsertPoint(next);
  PHINode* next_first = b.CreatePHI(i32, 5, "next_first");
  PHINode* next_site = b.CreatePHI(ptr, 5, "next_site");
  for (BasicBlock* from : {live_check, run, compare, other_site}) {
    next_first->addIncoming(first, from);
    next_site->addIncoming(first_site, from);
  }
  next_first->addIncoming(rank, stopped);
  next_site->addIncoming(site, stopped);
  x->addIncoming(b.CreateAdd(x, b.getInt32(1)), next);
  first->addIncoming(next_first, next);
  first_site->addIncoming(next_site, next);
  b.CreateBr(thread_head);

  b.SetInsertPoint(row_end);
  Value* y1 = b.CreateAdd(y, b.getInt32(1));
  Value* plane_done = b.CreateICmpEQ(y1, f.dim_y);
  row->addIncoming(b.CreateAdd(row, f.dim_x), row_end);
  y->addIncoming(b.CreateSelect(plane_done, b.getInt32(0), y1), row_end);
  z->addIncoming(b.CreateAdd(z, b.CreateZExt(plane_done, i32)), row_end);
  row_first->addIncoming(first, row_end);
  row_site->addIncoming(first_site, row_end);
  b.CreateBr(rows);

  b.SetInsertPoint(region_end);  // another region while some thread waits at a barrier
  b.CreateCondBr(b.CreateICmpNE(row_first, none), region, done);

  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return call;
}

// Every thread of the block but the last (rank count - 1), rows of threadIdx.x
// each a plain loop over x from 0 (so that a prefix of it starts aligned);
// `body` emits one thread's work at the builder's position. Returns the block
// the nest leaves to.
template <class Body>
BasicBlock* rest_of_threads(IRBuilder<>& b, Function& block, const block_record_fields& f, bool position_read,
                            Body body) {
  LLVMContext& context = block.getContext();
  Type* i32 = b.getInt32Ty();
  BasicBlock* from = b.GetInsertBlock();
  auto* rows = BasicBlock::Create(context, "rows", &block);
  auto* row_start = BasicBlock::Create(context, "row_start", &block);
  auto* thread_head = BasicBlock::Create(context, "thread", &block);
  auto* run = BasicBlock::Create(context, "run", &block);
  auto* row_end = BasicBlock::Create(context, "row_end", &block);
  auto* done = BasicBlock::Create(context, "rows_done", &block);
  b.CreateBr(rows);

  b.SetInsertPoint(rows);
  PHINode* row = b.CreatePHI(i32, 2, "row");
  PHINode* y = b.CreatePHI(i32, 2, "y");
  PHINode* z = b.CreatePHI(i32, 2, "z");
  for (PHINode* phi : {row, y, z}) phi->addIncoming(b.getInt32(0), from);
  b.CreateCondBr(b.CreateICmpULT(row, f.count), row_start, done);

  b.SetInsertPoint(row_start);  // the last row ends before the last thread
  Value* last_row = b.CreateICmpEQ(b.CreateAdd(row, f.dim_x), f.count);
  Value* end_x = b.CreateSub(f.dim_x, b.CreateZExt(last_row, i32), "end_x");
  b.CreateBr(thread_head);

  b.SetInsertPoint(thread_head);
  PHINode* x = b.CreatePHI(i32, 2, "x");
  x->addIncoming(b.getInt32(0), row_start);
  if (!position_read) mark_thread_counter(x);
  b.CreateCondBr(b.CreateICmpULT(x, end_x), run, row_end);

  b.SetInsertPoint(run);
  body(x, y, z, row);
  x->addIncoming(b.CreateAdd(x, b.getInt32(1)), b.GetInsertBlock());
  b.CreateBr(thread_head);

  b.SetInsertPoint(row_end);
  Value* y1 = b.CreateAdd(y, b.getInt32(1));
  Value* plane_done = b.CreateICmpEQ(y1, f.dim_y);
  row->addIncoming(b.CreateAdd(row, f.dim_x), row_end);
  y->addIncoming(b.CreateSelect(plane_done, b.getInt32(0), y1), row_end);
  z->addIncoming(b.CreateAdd(z, b.CreateZExt(plane_done, i32)), row_end);
  b.CreateBr(rows);

  b.SetInsertPoint(done);
  return done;
}

// A kernel whose barriers (and warp or tile collectives) are all in
// block-uniform control flow: every live thread stops at the same barrier, or all exit. One nest of thread loops per
// resume point, each calling the step with that constant (so that inlining
// leaves only the region's code); the threads run in rank order, and the last
// one's result says where the block goes next (every thread's says the same;
// the last, so that the others' loops start at threadIdx.x 0, where a prefix
// of them vectorizes without a remainder). No per-thread resume point, check or site.
SmallVector<CallInst*, 16> build_uniform_regions(Function& kernel, Function& block, const step_function& step) {
  LLVMContext& context = kernel.getContext();
  Module& module = *kernel.getParent();
  Type* i8 = Type::getInt8Ty(context);
  Type* i64 = Type::getInt64Ty(context);
  auto* entry = BasicBlock::Create(context, "entry", &block);
  auto* dispatch = BasicBlock::Create(context, "dispatch", &block);
  auto* done = BasicBlock::Create(context, "done", &block);
  IRBuilder<> b(entry);
  const block_record_fields f = begin_block(b, module, step);
  // The uniform values kept across barriers (step_function.cpp): as the
  // region started, as the next will start, and where threads but the deciding one write them.
  auto slots = [&](const char* name) {
    AllocaInst* slots = b.CreateAlloca(ArrayType::get(i8, step.uniform_bytes), nullptr, name);
    slots->setAlignment(Align(16));
    return slots;
  };
  AllocaInst* kept = slots("kept");
  AllocaInst* keep = slots("keep");
  AllocaInst* ignored = slots("ignored");
  Value* start = step.level_barriers ? restore_block(b, step, f.ctx, kept, keep) : b.getInt32(0);
  b.CreateBr(dispatch);

  b.SetInsertPoint(dispatch);
  PHINode* resume = b.CreatePHI(b.getInt32Ty(), step.barriers + 2, "resume");
  resume->addIncoming(start, entry);
  PHINode* resumed = b.CreatePHI(b.getInt1Ty(), step.barriers + 2, "resumed");  // just resumed at a grid barrier
  resumed->addIncoming(b.getTrue(), entry);
  SwitchInst* to = b.CreateSwitch(resume, done, step.barriers + 1);

  SmallVector<CallInst*, 16> calls;
  for (unsigned point = 0; point <= step.barriers; ++point) {
    auto* first = BasicBlock::Create(context, "region" + Twine(point), &block);
    to->addCase(b.getInt32(point), way_to_point(step, f, kept, resumed, first, point));
    b.SetInsertPoint(first);
    // After a collective, its groups' exchange (every thread stopped there), then the region.
    if (point > 0) complete_collective(b, module, step, f, point - 1);
    auto frame_at = [&](Value* x, Value* row) {
      Value* rank = b.CreateZExt(b.CreateAdd(row, x, "rank"), i64);
      return b.CreateInBoundsGEP(i8, f.frames, b.CreateMul(rank, b.getInt64(step.frame_bytes)), "frame");
    };
    BasicBlock* after = rest_of_threads(b, block, f, step.position_read, [&](Value* x, Value* y, Value* z, Value* row) {
      if (step.position_read) store_position(b, f.position, x, y, z, row);
      calls.push_back(
          call_step(b, kernel, block, step, f, b.getInt32(point), frame_at(x, row), x, y, z, row, kept, ignored));
    });
    b.SetInsertPoint(after);
    Value* one = b.getInt32(1);
    Value* last_x = b.CreateSub(f.dim_x, one, "last_x");
    Value* last_y = b.CreateSub(f.dim_y, one, "last_y");
    Value* last_z = b.CreateSub(f.dim_z, one, "last_z");
    Value* last_row = b.CreateSub(f.count, f.dim_x, "last_row");
    if (step.position_read) store_position(b, f.position, last_x, last_y, last_z, last_row);
    CallInst* next = call_step(b, kernel, block, step, f, b.getInt32(point), frame_at(last_x, last_row), last_x, last_y,
                               last_z, last_row, kept, keep);
    calls.push_back(next);
    if (step.uniform_bytes) b.CreateMemCpy(kept, Align(16), keep, Align(16), step.uniform_bytes);
    resume->addIncoming(next, after);
    resumed->addIncoming(b.getFalse(), after);
    b.CreateBr(dispatch);
  }

  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return calls;
}

struct thread_coordinates {
  Value *x, *y, *z, *row;
};

// threadIdx and the row of block rank `rank`.
thread_coordinates coordinates_of(IRBuilder<>& b, const block_record_fields& f, Value* rank) {
  Value* x = b.CreateURem(rank, f.dim_x, "x");
  Value* plane = b.CreateUDiv(rank, f.dim_x);
  return {x, b.CreateURem(plane, f.dim_y, "y"), b.CreateUDiv(plane, f.dim_y, "z"), b.CreateSub(rank, x, "row")};
}

// The ranks of one warp, [first, end), and the coordinates of its first and last.
struct warp_lanes_at {
  Value* first;
  Value* end;
  thread_coordinates first_at, last_at;
};

// A kernel with collectives in warp-uniform control flow (step.per_warp):
// the uniform shape with regions per warp between block barriers. Each warp
// runs from the block's resume point, region after region over its lanes (its
// last lane deciding), completing each collective for its own ranks, until it
// stops at a block barrier or exits; then the next warp. Every warp stops at
// the same block barrier (barriers are block-uniform), the block's next resume
// point. The uniform values kept across points are kept per warp: each warp
// starts from the block's (`kept_block`), and the last warp's are the block's
// after the barrier (all warps computed the same). `lanes` emits the region's
// run of the warp's lanes and returns the deciding lane's result.
template <class Lanes>
void build_warp_regions(IRBuilder<>& b, Function& function, const step_function& step, const block_record_fields& f,
                        Lanes lanes) {
  LLVMContext& context = function.getContext();
  Module& module = *function.getParent();
  Type* i32 = b.getInt32Ty();
  Constant* none = b.getInt32(exited);
  Constant* width = b.getInt32(32);  // the warps of the proof (uniformity.hpp); the launch checks the device's
  auto slots = [&](const char* name) {
    AllocaInst* slots = b.CreateAlloca(ArrayType::get(b.getInt8Ty(), step.uniform_bytes), nullptr, name);
    slots->setAlignment(Align(16));
    return slots;
  };
  AllocaInst* kept_block = slots("kept_block");
  AllocaInst* kept = slots("kept");
  AllocaInst* keep = slots("keep");
  AllocaInst* ignored = slots("ignored");
  auto copy = [&](Value* to, Value* from) {
    if (step.uniform_bytes) b.CreateMemCpy(to, Align(16), from, Align(16), step.uniform_bytes);
  };
  BasicBlock* entry = b.GetInsertBlock();
  auto* block_dispatch = BasicBlock::Create(context, "block_dispatch", &function);
  auto* warp_head = BasicBlock::Create(context, "warp", &function);
  auto* warp_start = BasicBlock::Create(context, "warp_start", &function);
  auto* warp_dispatch = BasicBlock::Create(context, "warp_dispatch", &function);
  auto* warp_end = BasicBlock::Create(context, "warp_end", &function);
  auto* block_next = BasicBlock::Create(context, "block_next", &function);
  auto* done = BasicBlock::Create(context, "done", &function);
  b.CreateBr(block_dispatch);

  b.SetInsertPoint(block_dispatch);
  PHINode* resume = b.CreatePHI(i32, 2, "block_resume");
  resume->addIncoming(b.getInt32(0), entry);
  b.CreateCondBr(b.CreateICmpEQ(resume, none), done, warp_head);

  b.SetInsertPoint(warp_head);
  PHINode* first = b.CreatePHI(i32, 2, "warp_first");
  PHINode* last_next = b.CreatePHI(i32, 2, "last_warp_next");  // where the last warp run stopped
  first->addIncoming(b.getInt32(0), block_dispatch);
  last_next->addIncoming(resume, block_dispatch);
  b.CreateCondBr(b.CreateICmpULT(first, f.count), warp_start, block_next);

  b.SetInsertPoint(warp_start);
  copy(kept, kept_block);
  Value* past = b.CreateAdd(first, width);
  Value* end = b.CreateSelect(b.CreateICmpULT(past, f.count), past, f.count, "warp_end");
  // Once a warp, not a region: divisions LICM may not hoist (they may trap, as far as it knows).
  const thread_coordinates first_at = coordinates_of(b, f, first);
  Value* last = b.CreateSub(end, b.getInt32(1), "last_lane");
  const thread_coordinates last_at = coordinates_of(b, f, last);
  b.CreateBr(warp_dispatch);

  b.SetInsertPoint(warp_dispatch);
  PHINode* warp_resume = b.CreatePHI(i32, 2, "warp_resume");
  warp_resume->addIncoming(resume, warp_start);
  SwitchInst* to = b.CreateSwitch(warp_resume, warp_end, step.barriers + 1);

  b.SetInsertPoint(warp_end);
  PHINode* warp_next = b.CreatePHI(i32, step.barriers + 2, "warp_next");
  warp_next->addIncoming(warp_resume, warp_dispatch);
  first->addIncoming(past, warp_end);
  last_next->addIncoming(warp_next, warp_end);
  b.CreateBr(warp_head);

  FunctionCallee exchange = module.getOrInsertFunction(lane_exchange_warp_symbol, b.getVoidTy(), b.getPtrTy(), i32, i32,
                                                       i32, b.getInt64Ty(), b.getPtrTy(), b.getInt1Ty(), b.getPtrTy());
  for (unsigned point = 0; point <= step.barriers; ++point) {
    auto* region = BasicBlock::Create(context, "warp_region" + Twine(point), &function);
    to->addCase(b.getInt32(point), region);
    b.SetInsertPoint(region);
    // After a collective, the warp's exchange (every lane of the warp stopped there).
    if (point > 0)
      if (const std::optional<lane_point>& p = step.lane_points[point - 1])
        b.CreateCall(exchange, {f.ctx, first, b.getInt32(p->kind), b.getInt32(p->size), lane_mask(b, *p), p->where,
                                b.getInt1(p->uniform_arg), fold_lanes(b, *p)});
    Value* next = lanes(b.getInt32(point), warp_lanes_at{first, end, first_at, last_at}, kept, keep, ignored);
    copy(kept, keep);
    // On to the warp's next collective, or, at a block barrier or the exit, to the next warp.
    SwitchInst* on = b.CreateSwitch(next, warp_end);
    warp_next->addIncoming(next, b.GetInsertBlock());
    for (unsigned p = 1; p <= step.barriers; ++p)
      if (step.lane_points[p - 1]) {
        on->addCase(b.getInt32(p), warp_dispatch);
        warp_resume->addIncoming(next, b.GetInsertBlock());  // one entry an edge
      }
  }

  b.SetInsertPoint(block_next);
  copy(kept_block, kept);
  resume->addIncoming(last_next, block_next);
  b.CreateBr(block_dispatch);

  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

// A shuffled schedule (COHORT_SCHEDULE=shuffle): the same regions, each
// running the block's threads in the order the runtime drew for the block
// (loops_block::order, a permutation of the ranks). A function of its own,
// called by the block function where the record has an order, so that the
// loops in rank order stay as they are.
Function* declare_shuffled_function(Function& kernel) {
  Module& module = *kernel.getParent();
  SmallVector<Type*, 8> params(kernel.getFunctionType()->params());
  params.push_back(PointerType::getUnqual(kernel.getContext()));
  auto* type = FunctionType::get(Type::getVoidTy(kernel.getContext()), params, false);
  Function* shuffled =
      Function::Create(type, GlobalValue::InternalLinkage, kernel.getName() + ".cohort.shuffled", module);
  for (unsigned i = 0; i < kernel.arg_size(); ++i)
    shuffled->addParamAttrs(i, AttrBuilder(module.getContext(), kernel.getAttributes().getParamAttrs(i)));
  for (StringRef copied : {"target-cpu", "target-features", "tune-cpu", "frame-pointer"})
    if (kernel.hasFnAttribute(copied)) shuffled->addFnAttr(kernel.getFnAttribute(copied));
  shuffled->setUWTableKind(kernel.getUWTableKind());
  if (DISubprogram* program = kernel.getSubprogram())
    shuffled->setSubprogram(MDNode::replaceWithDistinct(program->clone()));
  return shuffled;
}

// The threads order[from], ..., order[count - 1]; `body` emits one thread's
// work at the builder's position, given its coordinates and rank.
template <class Body>
void threads_in_order(IRBuilder<>& b, Function& function, const block_record_fields& f, unsigned from, Body body) {
  LLVMContext& context = function.getContext();
  BasicBlock* before = b.GetInsertBlock();
  auto* head = BasicBlock::Create(context, "ordered", &function);
  auto* run = BasicBlock::Create(context, "ordered_thread", &function);
  auto* done = BasicBlock::Create(context, "ordered_done", &function);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  PHINode* i = b.CreatePHI(b.getInt32Ty(), 2, "i");
  i->addIncoming(b.getInt32(from), before);
  b.CreateCondBr(b.CreateICmpULT(i, f.count), run, done);
  b.SetInsertPoint(run);
  Value* rank = b.CreateLoad(b.getInt32Ty(),
                             b.CreateInBoundsGEP(b.getInt32Ty(), f.order, b.CreateZExt(i, b.getInt64Ty())), "rank");
  body(coordinates_of(b, f, rank), rank);
  i->addIncoming(b.CreateAdd(i, b.getInt32(1)), b.GetInsertBlock());
  b.CreateBr(head);
  b.SetInsertPoint(done);
}

Value* frame_of(IRBuilder<>& b, const block_record_fields& f, const step_function& step, Value* rank) {
  Value* offset = b.CreateMul(b.CreateZExt(rank, b.getInt64Ty()), b.getInt64(step.frame_bytes));
  return b.CreateInBoundsGEP(b.getInt8Ty(), f.frames, offset, "frame");
}

// A warp's lanes first, ..., end - 1 in rank order: the part of each row of
// threadIdx.x it has (one row, where blockDim.x is a multiple of 32 or the
// block is one row), each a plain loop over x, which the vectorizer can take;
// `body` emits one lane's work at the builder's position.
template <class Body>
void lanes_in_rank_order(IRBuilder<>& b, Function& function, const block_record_fields& f, Value* first, Value* end,
                         const thread_coordinates& start, Body body) {
  LLVMContext& context = function.getContext();
  Type* i32 = b.getInt32Ty();
  BasicBlock* before = b.GetInsertBlock();
  auto* rows = BasicBlock::Create(context, "lane_rows", &function);
  auto* row_start = BasicBlock::Create(context, "lane_row", &function);
  auto* head = BasicBlock::Create(context, "lane", &function);
  auto* run = BasicBlock::Create(context, "lane_run", &function);
  auto* row_end = BasicBlock::Create(context, "lane_row_end", &function);
  auto* done = BasicBlock::Create(context, "lanes_done", &function);
  b.CreateBr(rows);
  b.SetInsertPoint(rows);
  PHINode* rank = b.CreatePHI(i32, 2, "segment");  // the rank the row's part starts at
  PHINode* x0 = b.CreatePHI(i32, 2, "x0");
  PHINode* y = b.CreatePHI(i32, 2, "y");
  PHINode* z = b.CreatePHI(i32, 2, "z");
  rank->addIncoming(first, before);
  x0->addIncoming(start.x, before);
  y->addIncoming(start.y, before);
  z->addIncoming(start.z, before);
  b.CreateCondBr(b.CreateICmpULT(rank, end), row_start, done);
  b.SetInsertPoint(row_start);
  Value* row = b.CreateSub(rank, x0, "row");
  Value* to_end = b.CreateAdd(x0, b.CreateSub(end, rank));
  Value* end_x = b.CreateSelect(b.CreateICmpULT(to_end, f.dim_x), to_end, f.dim_x, "end_x");
  b.CreateBr(head);
  b.SetInsertPoint(head);
  PHINode* x = b.CreatePHI(i32, 2, "x");
  x->addIncoming(x0, row_start);
  b.CreateCondBr(b.CreateICmpULT(x, end_x), run, row_end);
  b.SetInsertPoint(run);
  body(thread_coordinates{x, y, z, row}, b.CreateAdd(row, x, "rank"));
  x->addIncoming(b.CreateAdd(x, b.getInt32(1)), b.GetInsertBlock());
  b.CreateBr(head);
  b.SetInsertPoint(row_end);
  Value* y1 = b.CreateAdd(y, b.getInt32(1));
  Value* plane_done = b.CreateICmpEQ(y1, f.dim_y);
  rank->addIncoming(b.CreateAdd(row, end_x), row_end);
  x0->addIncoming(b.getInt32(0), row_end);
  y->addIncoming(b.CreateSelect(plane_done, b.getInt32(0), y1), row_end);
  z->addIncoming(b.CreateAdd(z, b.CreateZExt(plane_done, i32)), row_end);
  b.CreateBr(rows);
  b.SetInsertPoint(done);
}

// The per-warp shape in rank order: each warp's lanes but the last, then the
// last, which decides where the warp goes (and alone writes `keep`).
SmallVector<CallInst*, 16> build_warp_regions_in_order(Function& kernel, Function& block, const step_function& step) {
  LLVMContext& context = kernel.getContext();
  IRBuilder<> b(BasicBlock::Create(context, "entry", &block));
  const block_record_fields f = begin_block(b, *kernel.getParent(), step);
  SmallVector<CallInst*, 16> calls;
  auto lane_step = [&](const thread_coordinates& at, Value* rank, Value* point, Value* kept, Value* keep) {
    if (step.position_read) store_position(b, f.position, at.x, at.y, at.z, at.row);
    calls.push_back(
        call_step(b, kernel, block, step, f, point, frame_of(b, f, step, rank), at.x, at.y, at.z, at.row, kept, keep));
    return calls.back();
  };
  build_warp_regions(b, block, step, f,
                     [&](Value* point, const warp_lanes_at& warp, Value* kept, Value* keep, Value* ignored) -> Value* {
                       Value* last = b.CreateSub(warp.end, b.getInt32(1), "last_lane");
                       lanes_in_rank_order(b, block, f, warp.first, last, warp.first_at,
                                           [&](const thread_coordinates& at, Value* rank) {
                                             lane_step(at, rank, point, kept, ignored);
                                           });
                       return lane_step(warp.last_at, last, point, kept, keep);
                     });
  return calls;
}

// The per-warp shape in a shuffled schedule: each warp's lanes in the order
// drawn for the block (its ranks of that order), every lane writing `keep`
// (the same values: they are uniform), the last run deciding.
void build_shuffled_warp_regions(Function& kernel, Function& shuffled, const step_function& step, IRBuilder<>& b,
                                 const block_record_fields& f, SmallVector<CallInst*, 16>& calls) {
  AllocaInst* next = b.CreateAlloca(b.getInt32Ty(), nullptr, "next");
  build_warp_regions(
      b, shuffled, step, f, [&](Value* point, const warp_lanes_at& warp, Value* kept, Value* keep, Value*) -> Value* {
        threads_in_order(b, shuffled, f, 0, [&](const thread_coordinates& at, Value* rank) {
          LLVMContext& context = shuffled.getContext();
          auto* run = BasicBlock::Create(context, "lane_run", &shuffled);
          auto* skip = BasicBlock::Create(context, "lane_skip", &shuffled);
          b.CreateCondBr(b.CreateAnd(b.CreateICmpUGE(rank, warp.first), b.CreateICmpULT(rank, warp.end)), run, skip);
          b.SetInsertPoint(run);
          if (step.position_read) store_position(b, f.position, at.x, at.y, at.z, at.row);
          calls.push_back(call_step(b, kernel, shuffled, step, f, point, frame_of(b, f, step, rank), at.x, at.y, at.z,
                                    at.row, kept, keep));
          b.CreateStore(calls.back(), next);
          b.CreateBr(skip);
          b.SetInsertPoint(skip);
        });
        return b.CreateLoad(b.getInt32Ty(), next, "warp_next");
      });
}

// The three shapes of block function (block_function.hpp), each thread loop in the drawn order.
SmallVector<CallInst*, 16> build_shuffled_regions(Function& kernel, Function& shuffled, const step_function& step) {
  LLVMContext& context = kernel.getContext();
  Module& module = *kernel.getParent();
  Type* i32 = Type::getInt32Ty(context);
  PointerType* ptr = PointerType::getUnqual(context);
  Constant* none = ConstantInt::get(i32, exited);
  auto* entry = BasicBlock::Create(context, "entry", &shuffled);
  IRBuilder<> b(entry);
  const block_record_fields f = read_block_record(b, shuffled.getArg(kernel.arg_size()));
  SmallVector<CallInst*, 16> calls;
  auto thread_step = [&](const thread_coordinates& at, Value* resume, Value* frame, Value* kept, Value* keep) {
    if (step.position_read) store_position(b, f.position, at.x, at.y, at.z, at.row);
    CallInst* call = call_step(b, kernel, shuffled, step, f, resume, frame, at.x, at.y, at.z, at.row, kept, keep);
    calls.push_back(call);
    return call;
  };
  if (step.barriers == 0) {
    threads_in_order(b, shuffled, f, 0, [&](const thread_coordinates& at, Value*) {
      thread_step(at, b.getInt32(0), f.frames, nullptr, nullptr);
    });
    b.CreateRetVoid();
    return calls;
  }
  if (step.per_warp) {
    build_shuffled_warp_regions(kernel, shuffled, step, b, f, calls);
    return calls;
  }
  if (step.uniform) {
    // As build_uniform_regions, the first thread of the order deciding where the block goes.
    auto slots = [&](const char* name) {
      AllocaInst* slots = b.CreateAlloca(ArrayType::get(b.getInt8Ty(), step.uniform_bytes), nullptr, name);
      slots->setAlignment(Align(16));
      return slots;
    };
    AllocaInst* kept = slots("kept");
    AllocaInst* keep = slots("keep");
    AllocaInst* ignored = slots("ignored");
    Value* first_rank = b.CreateLoad(i32, f.order, "first_rank");
    Value* start = step.level_barriers ? restore_block(b, step, f.ctx, kept, keep) : b.getInt32(0);
    auto* dispatch = BasicBlock::Create(context, "dispatch", &shuffled);
    auto* done = BasicBlock::Create(context, "done", &shuffled);
    b.CreateBr(dispatch);
    b.SetInsertPoint(dispatch);
    PHINode* resume = b.CreatePHI(i32, step.barriers + 2, "resume");
    resume->addIncoming(start, entry);
    PHINode* resumed = b.CreatePHI(b.getInt1Ty(), step.barriers + 2, "resumed");
    resumed->addIncoming(b.getTrue(), entry);
    SwitchInst* to = b.CreateSwitch(resume, done, step.barriers + 1);
    for (unsigned point = 0; point <= step.barriers; ++point) {
      auto* first = BasicBlock::Create(context, "region" + Twine(point), &shuffled);
      to->addCase(b.getInt32(point), way_to_point(step, f, kept, resumed, first, point));
      b.SetInsertPoint(first);
      if (point > 0) complete_collective(b, module, step, f, point - 1);
      CallInst* next = thread_step(coordinates_of(b, f, first_rank), b.getInt32(point),
                                   frame_of(b, f, step, first_rank), kept, keep);
      threads_in_order(b, shuffled, f, 1, [&](const thread_coordinates& at, Value* rank) {
        thread_step(at, b.getInt32(point), frame_of(b, f, step, rank), kept, ignored);
      });
      if (step.uniform_bytes) b.CreateMemCpy(kept, Align(16), keep, Align(16), step.uniform_bytes);
      resume->addIncoming(next, b.GetInsertBlock());
      resumed->addIncoming(b.getFalse(), b.GetInsertBlock());
      b.CreateBr(dispatch);
    }
    b.SetInsertPoint(done);
    b.CreateRetVoid();
    return calls;
  }
  // As build_region_loop: regions until no thread waits at a barrier, the
  // first thread of each region at one and its site kept in locals.
  FunctionCallee check_site = module.getOrInsertFunction(check_site_symbol, Type::getVoidTy(context), ptr, i32, i32);
  AllocaInst* first = b.CreateAlloca(i32, nullptr, "first");
  AllocaInst* first_site = b.CreateAlloca(ptr, nullptr, "first_site");
  auto* region = BasicBlock::Create(context, "region", &shuffled);
  b.CreateBr(region);
  b.SetInsertPoint(region);
  b.CreateStore(none, first);
  threads_in_order(b, shuffled, f, 0, [&](const thread_coordinates& at, Value* rank) {
    auto* run = BasicBlock::Create(context, "run", &shuffled);
    auto* stopped = BasicBlock::Create(context, "stopped", &shuffled);
    auto* compare = BasicBlock::Create(context, "compare", &shuffled);
    auto* first_here = BasicBlock::Create(context, "first_here", &shuffled);
    auto* other_site = BasicBlock::Create(context, "other_site", &shuffled);
    auto* next = BasicBlock::Create(context, "next", &shuffled);
    Value* resume_slot = b.CreateInBoundsGEP(i32, f.resumes, b.CreateZExt(rank, b.getInt64Ty()), "resume_slot");
    Value* resume = b.CreateLoad(i32, resume_slot, "resume");
    b.CreateCondBr(b.CreateICmpEQ(resume, none), next, run);  // CUDA: exited threads no longer count
    b.SetInsertPoint(run);
    Value* frame = frame_of(b, f, step, rank);
    CallInst* call = thread_step(at, resume, frame, nullptr, nullptr);
    b.CreateStore(call, resume_slot);
    b.CreateCondBr(b.CreateICmpEQ(call, none), next, stopped);
    b.SetInsertPoint(stopped);
    Value* site = b.CreateLoad(ptr, frame, "site");
    Value* first_rank = b.CreateLoad(i32, first);
    b.CreateCondBr(b.CreateICmpEQ(first_rank, none), first_here, compare);
    b.SetInsertPoint(first_here);
    b.CreateStore(rank, first);
    b.CreateStore(site, first_site);
    b.CreateBr(next);
    b.SetInsertPoint(compare);
    b.CreateCondBr(b.CreateICmpEQ(site, b.CreateLoad(ptr, first_site)), next, other_site);
    b.SetInsertPoint(other_site);
    b.CreateCall(check_site, {f.ctx, first_rank, rank});
    b.CreateBr(next);
    b.SetInsertPoint(next);
  });
  auto* done = BasicBlock::Create(context, "done", &shuffled);
  b.CreateCondBr(b.CreateICmpNE(b.CreateLoad(i32, first), none), region, done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return calls;
}

// The block function turns to `shuffled` where the runtime drew an order for
// the block: after begin_block, in its entry.
void divert_shuffled_blocks(Function& block, Function& shuffled) {
  BasicBlock& entry = block.getEntryBlock();
  CallInst* ctx = nullptr;
  for (Instruction& inst : entry)
    if (auto* call = dyn_cast<CallInst>(&inst); call && call->getCalledFunction() &&
                                                (call->getCalledFunction()->getName() == begin_block_symbol ||
                                                 call->getCalledFunction()->getName() == begin_grid_block_symbol))
      ctx = call;
  auto* in_order = cast<BranchInst>(entry.getTerminator());
  LLVMContext& context = block.getContext();
  auto* divert = BasicBlock::Create(context, "shuffled", &block);
  IRBuilder<> b(in_order);
  Value* order = b.CreateLoad(b.getPtrTy(), b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ctx, order_offset), "order");
  b.CreateCondBr(b.CreateIsNotNull(order), divert, in_order->getSuccessor(0));
  in_order->eraseFromParent();
  b.SetInsertPoint(divert);
  SmallVector<Value*, 8> args;
  for (Argument& a : block.args()) args.push_back(&a);
  args.push_back(ctx);
  CallInst* call = b.CreateCall(&shuffled, args);
  for (unsigned i = 0; i < block.arg_size(); ++i)
    for (Attribute attribute : block.getAttributes().getParamAttrs(i)) call->addParamAttr(i, attribute);
  if (DISubprogram* program = block.getSubprogram())
    call->setDebugLoc(DILocation::get(context, program->getLine(), 0, program));
  b.CreateRetVoid();
}

// After inlining: what the step marked uniform, and whose operands the entry
// (or `home`) already has, moves to `home` (the entry, or where each block of a
// barrier-free block function starts), computed once per block instead of per thread.
void compute_uniform_values_once(Function& block, BasicBlock& home) {
  BasicBlock& entry = block.getEntryBlock();
  auto available = [&](const Value* v) {
    const auto* inst = dyn_cast<Instruction>(v);
    return !inst || inst->getParent() == &entry || inst->getParent() == &home;
  };
  SmallVector<Instruction*, 16> marked;
  for (BasicBlock& b : block)
    for (Instruction& inst : b)
      if (inst.getMetadata(uniform_metadata)) marked.push_back(&inst);
  for (bool changed = true; changed;) {  // operands first: a few passes over a short list
    changed = false;
    for (Instruction*& inst : marked) {
      if (!inst || !all_of(inst->operands(), available)) continue;
      inst->moveBefore(home.getTerminator());
      inst->setMetadata(uniform_metadata, nullptr);
      inst = nullptr;
      changed = true;
    }
  }
  for (Instruction* inst : marked)
    if (inst) inst->setMetadata(uniform_metadata, nullptr);
}

// The pipeline before this pass has run; the vectorizer runs after it. Between
// them, what makes the thread loops its to take: the uniform values' slots in
// registers (SROA), computed once per region rather than per thread (LICM),
// and a branch on a uniform value split into one thread loop per way
// (non-trivial unswitching: the kernel's uniform control flow, which the
// thread loop otherwise tests per thread); then a barrier-free kernel's rows
// in two versions (row_versions.hpp), the other kernels' thread loops split
// where a test of the thread's index turns false (prefix_split.hpp), both of
// which need the row's values hoisted.
// Returns how many thread loops run in rounds (thread_rounds.hpp).
unsigned tidy_thread_loops(Function& block, BasicBlock* x_loop, Value* dim_x, FunctionAnalysisManager& functions) {
  FunctionPassManager hoist;
  hoist.addPass(SROAPass(SROAOptions::ModifyCFG));
  hoist.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  hoist.addPass(createFunctionToLoopPassAdaptor(LICMPass(LICMOptions()), /*UseMemorySSA=*/true));
  hoist.addPass(createFunctionToLoopPassAdaptor(SimpleLoopUnswitchPass(/*NonTrivial=*/true, /*Trivial=*/true),
                                                /*UseMemorySSA=*/true));
  functions.invalidate(block, hoist.run(block, functions));
  if (x_loop ? version_rows(block, x_loop, dim_x) : split_thread_loops_at_prefixes(block) > 0)
    functions.invalidate(block, PreservedAnalyses::none());
  FunctionPassManager simplify;
  const unsigned in_rounds = run_thread_loops_in_rounds(block);
  if (in_rounds > 0) {
    functions.invalidate(block, PreservedAnalyses::none());
    simplify.addPass(SROAPass(SROAOptions::ModifyCFG));  // the rounds' flag into a register
  }
  simplify.addPass(SimplifyCFGPass());
  simplify.addPass(InstCombinePass());
  functions.invalidate(block, simplify.run(block, functions));
  return in_rounds;
}

// The shuffled schedule's function: its locals in registers and its code
// folded, no more (a schedule for finding bugs, not for speed).
void tidy_shuffled_loops(Function& shuffled, FunctionAnalysisManager& functions) {
  FunctionPassManager simplify;
  simplify.addPass(SROAPass(SROAOptions::ModifyCFG));
  simplify.addPass(SimplifyCFGPass());
  simplify.addPass(InstCombinePass());
  functions.invalidate(shuffled, simplify.run(shuffled, functions));
}

}  // namespace

Function* build_block_function(Function& kernel, const step_function& step, FunctionAnalysisManager& functions,
                               unsigned& in_rounds) {
  Function* block = declare_block_function(kernel);
  Function* shuffled = declare_shuffled_function(kernel);
  SmallVector<CallInst*, 16> calls;
  BasicBlock* x_loop = nullptr;
  Value* dim_x = nullptr;
  BasicBlock* per_block = nullptr;
  if (step.barriers == 0)
    calls.push_back(build_thread_nest(kernel, *block, step, x_loop, dim_x, per_block));
  else if (step.per_warp)
    calls = build_warp_regions_in_order(kernel, *block, step);
  else if (step.uniform)
    calls = build_uniform_regions(kernel, *block, step);
  else
    calls.push_back(build_region_loop(kernel, *block, step));
  calls.append(build_shuffled_regions(kernel, *shuffled, step));
  bool inlined = true;
  for (CallInst* call : calls) {
    InlineFunctionInfo inlining;
    inlined = InlineFunction(*call, inlining).isSuccess() && inlined;
  }
  for (Function* f : {block, shuffled}) {
    // Each region's copy dispatches on a constant: only its own code stays.
    for (BasicBlock& b : *f) ConstantFoldTerminator(&b);
    removeUnreachableBlocks(*f);
    compute_uniform_values_once(*f, f == block && per_block ? *per_block : f->getEntryBlock());
  }
  if (inlined)
    step.function->eraseFromParent();
  else
    for (Instruction& inst : instructions(*step.function)) inst.setMetadata(uniform_metadata, nullptr);
  divert_shuffled_blocks(*block, *shuffled);
  in_rounds = tidy_thread_loops(*block, x_loop, dim_x, functions);
  tidy_shuffled_loops(*shuffled, functions);
  return block;
}

}  // namespace cohort_loops
