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

        .text
        .globl  cohort_jump_context
        .type   cohort_jump_context, @function
        .p2align 4
cohort_jump_context:
        .cfi_startproc
        suspend_and_switch_to_rdi %rdx
        restore_suspended
        movq    %rsi, %rdx
        ret
        .cfi_endproc
        .size   cohort_jump_context, .-cohort_jump_context

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
