// Stand-in for the CUDA driver API header (see cuda_runtime_api.h here):
// c10/cuda includes it for CUDA_VERSION only.
#pragma once
#include "cuda_runtime_api.h"
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
