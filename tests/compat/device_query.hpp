// The warp size as host code reads it from cudaDeviceProp (device_query.cpp).
#pragma once

int queried_warp_size();
