// A header with no launch of its own that includes one that has one: both are
// rewritten, so that the launch reaches the program (launch_spellings.cu).
#pragma once
#include "launch_spellings_inner.cuh"
