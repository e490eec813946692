// Thread-block clusters through CUDA's names on the host backend:
// __cluster_dims__ (recorded by cohort-cxx's registration of the kernel, see
// launch.hpp), cudaLaunchKernelEx's cudaLaunchAttributeClusterDimension
// (launch.cpp) and cudaOccupancyMaxActiveClusters, over cohort's clusters.
#pragma once

#include "../driver_types.h"

// A kernel attribute: cohort-cxx reads its dimensions where it registers the kernel.
#define __cluster_dims__(...)

cudaError_t cudaOccupancyMaxActiveClusters(int* numClusters, const void* func, const cudaLaunchConfig_t* config);

template <class... P>
cudaError_t cudaOccupancyMaxActiveClusters(int* numClusters, void (*func)(P...), const cudaLaunchConfig_t* config);
