// NVIDIA's <cooperative_groups/memcpy_async.h>: part of <cooperative_groups.h> here.
#pragma once

#include "../cooperative_groups.h"
#include "../cuda/barrier"
