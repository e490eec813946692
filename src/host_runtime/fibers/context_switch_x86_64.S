// cohort_jump_context(void* to /* rdi */, void* data /* rsi */, void** save /* rdx */)
//   -> {from, data} in rax:rdx
//
// Saves the SysV callee-saved registers (rbp rbx r12-r15) on the running
// fiber's stack; its stack pointer, now pointing at them, is the suspended
// context: stored at *save, and handed to the resumed fiber in rax with
// `data` in rdx (the two-pointer transfer_t a function returns in registers).
// The x87 control word and MXCSR are not saved: kernels have no
// floating-point environment.

// Suspends the running fiber: its callee-saved registers pushed, its stack
// pointer (the suspended context) stored at (\save) and kept in rax; then
// switches to the stack in rdi.
        .macro  suspend_and_switch_to_rdi save
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, (\save)
        movq    %rsp, %rax
        movq    %rdi, %rsp
        .endm

// Restores the callee-saved registers of the fiber whose stack is current.
        .macro  restore_suspended
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        .endm

// The resumed fiber is returned into with a ret when it was suspended at the
// call site the switching fiber calls from (threads parking at one barrier,
// lanes at one collective): the ret is predicted, from the CPU's return stack
// buffer, and leaves it balanced. From another call site (the first phase of
// a block whose threads wait at a second barrier call next: the tree
// reduction's first barrier and the one in its loop) a ret would be
// mispredicted every time; an indirect jump to the return address is
// predicted from the jump's history (the site resumed is the same for a whole
// phase), at the cost of an entry left on the buffer, which no return of the
// barrier's loop reads.
        .text
        .globl  cohort_jump_context
        .type   cohort_jump_context, @function
        .p2align 4
cohort_jump_context:
        .cfi_startproc
        suspend_and_switch_to_rdi %rdx
        restore_suspended
        movq    %rsi, %rdx
        movq    (%rsp), %rcx        // where the resumed fiber returns to
        cmpq    %rcx, 48(%rax)      // where the suspended one will
        jne     1f
        ret
1:      addq    $8, %rsp
        jmpq    *%rcx
        .cfi_endproc
        .size   cohort_jump_context, .-cohort_jump_context

// cohort_leave_context(void* to /* rdi */, void* data /* rsi */)
//
// Resumes `to` as cohort_jump_context does, leaving the running fiber for
// good: nothing of it is saved. A runner that ran out of threads leaves this
// way (leave_runner, scheduler.cpp). The resumed fiber is entered with an
// indirect jump rather than a ret: the leaving runner has returned from the
// frames it ran a thread in, so the CPU's return stack buffer no longer holds
// the frames of the fiber resumed (one that waits at a barrier in kernel code)
// and a ret would be mispredicted, where the jump's target, the same barrier
// call site for every thread of a block that waits there, is predicted.
        .globl  cohort_leave_context
        .type   cohort_leave_context, @function
        .p2align 4
cohort_leave_context:
        .cfi_startproc
        movq    %rdi, %rsp
        restore_suspended
        xorl    %eax, %eax
        movq    %rsi, %rdx
        popq    %rcx
        jmpq    *%rcx
        .cfi_endproc
        .size   cohort_leave_context, .-cohort_leave_context

// cohort_resume_with(void* to /* rdi */, void* data /* rsi */, void** save /* rdx */, fn /* rcx */)
//
// Suspends the running fiber as cohort_jump_context does and restores the
// fiber `to`, but instead of returning into it jumps to fn({from, data}) with
// `to`'s return address on top of its stack: fn runs as though `to`'s switch
// had called it, so an exception it throws unwinds `to`'s frames.
        .globl  cohort_resume_with
        .type   cohort_resume_with, @function
        .p2align 4
cohort_resume_with:
        .cfi_startproc
        suspend_and_switch_to_rdi %rdx
        restore_suspended
        movq    %rax, %rdi
        jmpq    *%rcx
        .cfi_endproc
        .size   cohort_resume_with, .-cohort_resume_with

// cohort_start_context(void* top /* rdi */, void* data /* rsi */, entry /* rdx */, void** save /* rcx */)
//
// Suspends the running fiber as cohort_jump_context does (the same frame, so
// that a jump resumes it) and calls entry({its context, data}) on the fresh
// stack below `top` (16-byte aligned): a fiber starts without a frame
// written for it beforehand and without a return into a trampoline.
        .globl  cohort_start_context
        .type   cohort_start_context, @function
        .p2align 4
cohort_start_context:
        .cfi_startproc
        suspend_and_switch_to_rdi %rcx
        movq    %rax, %rdi
        jmp     cohort_fresh_stack
        .cfi_endproc
        .size   cohort_start_context, .-cohort_start_context

// The bottom frame of a fiber started by cohort_start_context: unwinders stop here.
        .type   cohort_fresh_stack, @function
        .p2align 4
cohort_fresh_stack:
        .cfi_startproc
        .cfi_undefined rip
        callq   *%rdx
        ud2                     // entry functions never return
        .cfi_endproc
        .size   cohort_fresh_stack, .-cohort_fresh_stack

        .section .note.GNU-stack,"",@progbits
