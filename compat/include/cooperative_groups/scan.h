// NVIDIA's <cooperative_groups/scan.h>: part of <cooperative_groups.h> here.
#pragma once

#include "../cooperative_groups.h"
