// cohort_jump_context(void* to /* x0 */, void* data /* x1 */) -> {from, data} in x0:x1
//
// Saves the AAPCS64 callee-saved registers (x19-x28, the frame pointer x29,
// the link register x30 and the low halves d8-d15 of v8-v15) on the running
// fiber's stack; its stack pointer, now pointing at them, is the suspended
// context, handed to the resumed fiber in x0 with `data` in x1. The switch
// returns through the resumed fiber's x30.
        .text
        .globl  cohort_jump_context
        .type   cohort_jump_context, %function
        .p2align 4
cohort_jump_context:
        .cfi_startproc
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
        mov     x2, sp
        mov     sp, x0
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
        mov     x0, x2
        ret
        .cfi_endproc
        .size   cohort_jump_context, .-cohort_jump_context

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
