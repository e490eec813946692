// cohort_jump_context(void* to /* x0 */, void* data /* x1 */, void** save /* x2 */) -> {from, data} in x0:x1
//
// Saves the AAPCS64 callee-saved registers (x19-x28, the frame pointer x29,
// the link register x30 and the low halves d8-d15 of v8-v15) on the running
// fiber's stack; its stack pointer, now pointing at them, is the suspended
// context: stored at *save, and handed to the resumed fiber in x0 with `data`
// in x1. The switch returns through the resumed fiber's x30.
        .macro  suspend_and_switch_to_x0 save
        sub     sp, sp, #160
        stp     d8, d9, [sp, #0]
        stp     d10, d11, [sp, #16]
        stp     d12, d13, [sp, #32]
        stp     d14, d15, [sp, #48]
        stp     x19, x20, [sp, #64]
        stp     x21, x22, [sp, #80]
        stp     x23, x24, [sp, #96]
        stp     x25, x26, [sp, #112]
        stp     x27, x28, [sp, #128]
        stp     x29, x30, [sp, #144]
        mov     x9, sp
        str     x9, [\save]
        mov     sp, x0
        .endm

        .macro  restore_suspended
        ldp     d8, d9, [sp, #0]
        ldp     d10, d11, [sp, #16]
        ldp     d12, d13, [sp, #32]
        ldp     d14, d15, [sp, #48]
        ldp     x19, x20, [sp, #64]
        ldp     x21, x22, [sp, #80]
        ldp     x23, x24, [sp, #96]
        ldp     x25, x26, [sp, #112]
        ldp     x27, x28, [sp, #128]
        ldp     x29, x30, [sp, #144]
        add     sp, sp, #160
        .endm

        .text
        .globl  cohort_jump_context
        .type   cohort_jump_context, %function
        .p2align 4
cohort_jump_context:
        .cfi_startproc
        suspend_and_switch_to_x0 x2
        restore_suspended
        mov     x0, x9
        ret
        .cfi_endproc
        .size   cohort_jump_context, .-cohort_jump_context

// cohort_resume_with(void* to /* x0 */, void* data /* x1 */, void** save /* x2 */, fn /* x3 */)
//
// Suspends the running fiber as cohort_jump_context does and restores the
// fiber `to`, but instead of returning into it branches to fn({from, data})
// with `to`'s return address in x30: fn runs as though `to`'s switch had
// called it, so an exception it throws unwinds `to`'s frames.
        .globl  cohort_resume_with
        .type   cohort_resume_with, %function
        .p2align 4
cohort_resume_with:
        .cfi_startproc
        suspend_and_switch_to_x0 x2
        restore_suspended
        mov     x0, x9
        br      x3
        .cfi_endproc
        .size   cohort_resume_with, .-cohort_resume_with

// A fresh fiber's first return lands here: call the entry function that
// make_context left in x19 with the transfer {x0, x1} as its argument.
        .globl  cohort_context_entry
        .type   cohort_context_entry, %function
        .p2align 4
cohort_context_entry:
        .cfi_startproc
        .cfi_undefined x30
        blr     x19
        brk     #0              // entry functions never return
        .cfi_endproc
        .size   cohort_context_entry, .-cohort_context_entry

        .section .note.GNU-stack,"",%progbits
