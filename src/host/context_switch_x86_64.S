// cohort_jump_context(void* to /* rdi */, void* data /* rsi */) -> {from, data} in rax:rdx
//
// Saves the SysV callee-saved registers (rbp rbx r12-r15) on the running
// fiber's stack; its stack pointer, now pointing at them, is the suspended
// context, handed to the resumed fiber in rax with `data` in rdx (the
// two-pointer transfer_t a function returns in registers). The x87 control
// word and MXCSR are not saved: kernels have no floating-point environment.

// Suspends the running fiber: its callee-saved registers pushed, its stack
// pointer (the suspended context) in rax; then switches to the stack in rdi.
        .macro  suspend_and_switch_to_rdi
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, %rax
        movq    %rdi, %rsp
        .endm

        .text
        .globl  cohort_jump_context
        .type   cohort_jump_context, @function
        .p2align 4
cohort_jump_context:
        .cfi_startproc
        suspend_and_switch_to_rdi
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        movq    %rsi, %rdx
        ret
        .cfi_endproc
        .size   cohort_jump_context, .-cohort_jump_context

// cohort_start_context(void* top /* rdi */, void* data /* rsi */, entry /* rdx */)
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
        suspend_and_switch_to_rdi
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
