// Mock of the CUDA runtime API functions Seam's tests use.
#pragma once
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef int cudaError_t;
enum cudaStreamCaptureMode { cudaStreamCaptureModeGlobal = 0 };
typedef struct CUgraph_st *cudaGraph_t;
extern "C" {
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaStreamBeginCapture(cudaStream_t s, enum cudaStreamCaptureMode m);
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t *g);
}
