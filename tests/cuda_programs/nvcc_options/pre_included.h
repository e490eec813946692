// Included by --pre-include (-include) before the source.
#define PRE_INCLUDED 1
