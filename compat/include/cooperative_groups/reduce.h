// NVIDIA's <cooperative_groups/reduce.h>: part of <cooperative_groups.h> here.
#pragma once

#include "../cooperative_groups.h"
