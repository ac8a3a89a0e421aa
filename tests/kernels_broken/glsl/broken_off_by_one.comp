#version 450
// DELIBERATELY BROKEN copy of kernels/glsl/seed.comp for the verifier self-test
// (tests/test_broken_kernels.cpp): grad_weight_bias loops n < N-1: the last batch item is missing
// from grad_weight and grad_bias.
// Generated with one change from the seed, marked BUG below; every other line is the seed.
//
// One change of substance: where the dispatch's x count would exceed the device's
// maxComputeWorkGroupCount[0], gnbench folds it into y; the workgroup index below is therefore
// linearised as y * num_workgroups.x + x. The seed's own bounds check keeps the extra
// workgroups of the last row idle.

#if WG_SIZE != 256
#error "the seed kernels are written for workgroup_size 256"
#endif
layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer SrcA { float src_a[]; };  // grad_output
layout(std430, set = 0, binding = 1) readonly buffer SrcB { float src_b[]; };  // input x
layout(std430, set = 0, binding = 2) readonly buffer Bias { float bias[]; };   // weight[C]
layout(std430, set = 0, binding = 3) buffer Dst { float dst[]; };
layout(std140, set = 0, binding = 4) uniform ParamsBlock {
  uint batch;
  uint channels;
  uint spatial;
  uint num_groups;
  uint eps_bits;
  uint _pad0;
  uint _pad1;
  uint _pad2;
} params;

shared float wg_data[256];
shared float wg_data2[256];

uint linear_workgroup_id() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

#if defined(ENTRY_GRAD_INPUT)
// grad_input[i] = inv_std * (w[c] * dout[i] - mean(w*dout) - xhat[i] * mean(w*dout*xhat))
// Dispatch: [N * num_groups, 1, 1]
void main() {
  uint ng = linear_workgroup_id();
  if (ng >= params.batch * params.num_groups) { return; }

  uint n = ng / params.num_groups;
  uint group = ng % params.num_groups;
  uint tid = gl_LocalInvocationID.x;
  float eps = uintBitsToFloat(params.eps_bits);

  uint channels_per_group = params.channels / params.num_groups;
  uint group_size = channels_per_group * params.spatial;
  uint c_start = group * channels_per_group;

  // Pass 1: compute mean and variance of x within group
  float sum_x = 0.0;
  float sum_x2 = 0.0;
  uint j = tid;
  for (;;) {
    if (j >= group_size) { break; }
    uint c_local = j / params.spatial;
    uint hw = j % params.spatial;
    uint c = c_start + c_local;
    uint idx = ((n * params.channels + c) * params.spatial) + hw;
    float v = src_b[idx];
    sum_x += v;
    sum_x2 += v * v;
    j += 256u;
  }
  wg_data[tid] = sum_x;
  wg_data2[tid] = sum_x2;
  barrier();

  uint stride = 128u;
  for (;;) {
    if (stride == 0u) { break; }
    if (tid < stride) {
      wg_data[tid] += wg_data[tid + stride];
      wg_data2[tid] += wg_data2[tid + stride];
    }
    barrier();
    stride >>= 1u;
  }
  float mean = wg_data[0] / float(group_size);
  float variance = wg_data2[0] / float(group_size) - mean * mean;
  float inv_std = inversesqrt(variance + eps);
  barrier();

  // Pass 2: compute sum(w * dout) and sum(w * dout * xhat) within group
  float sum_wdy = 0.0;
  float sum_wdy_xhat = 0.0;
  j = tid;
  for (;;) {
    if (j >= group_size) { break; }
    uint c_local = j / params.spatial;
    uint hw = j % params.spatial;
    uint c = c_start + c_local;
    uint idx = ((n * params.channels + c) * params.spatial) + hw;
    float dy = src_a[idx];
    float w = bias[c];
    float xhat = (src_b[idx] - mean) * inv_std;
    sum_wdy += w * dy;
    sum_wdy_xhat += w * dy * xhat;
    j += 256u;
  }
  wg_data[tid] = sum_wdy;
  wg_data2[tid] = sum_wdy_xhat;
  barrier();

  stride = 128u;
  for (;;) {
    if (stride == 0u) { break; }
    if (tid < stride) {
      wg_data[tid] += wg_data[tid + stride];
      wg_data2[tid] += wg_data2[tid + stride];
    }
    barrier();
    stride >>= 1u;
  }
  float mean_wdy = wg_data[0] / float(group_size);
  float mean_wdy_xhat = wg_data2[0] / float(group_size);

  // Pass 3: compute grad_input
  j = tid;
  for (;;) {
    if (j >= group_size) { break; }
    uint c_local = j / params.spatial;
    uint hw = j % params.spatial;
    uint c = c_start + c_local;
    uint idx = ((n * params.channels + c) * params.spatial) + hw;
    float dy = src_a[idx];
    float w = bias[c];
    float xhat = (src_b[idx] - mean) * inv_std;
    dst[idx] = inv_std * (w * dy - mean_wdy - xhat * mean_wdy_xhat);
    j += 256u;
  }
}

#elif defined(ENTRY_GRAD_WEIGHT_BIAS)
// grad_weight[c] = sum_{n,hw} grad_out[n,c,hw] * xhat[n,c,hw]
// grad_bias[c] = sum_{n,hw} grad_out[n,c,hw]
// dst layout: [grad_weight[C], grad_bias[C]]. Dispatch: [C, 1, 1]
void main() {
  uint c = linear_workgroup_id();
  if (c >= params.channels) { return; }

  uint tid = gl_LocalInvocationID.x;
  float eps = uintBitsToFloat(params.eps_bits);
  uint channels_per_group = params.channels / params.num_groups;
  uint group = c / channels_per_group;
  uint c_start = group * channels_per_group;
  uint group_size = channels_per_group * params.spatial;

  float acc_dw = 0.0;
  float acc_db = 0.0;

  for (uint n = 0u; n + 1u < params.batch; n++) {  // BUG: off by one, skips n = N-1
    // Cooperative mean/var: 256 threads stride over group_size elements
    float local_sum = 0.0;
    float local_sum2 = 0.0;
    uint j = tid;
    for (;;) {
      if (j >= group_size) { break; }
      uint cc = c_start + j / params.spatial;
      uint hw = j % params.spatial;
      uint idx = ((n * params.channels + cc) * params.spatial) + hw;
      float v = src_b[idx];
      local_sum += v;
      local_sum2 += v * v;
      j += 256u;
    }
    wg_data[tid] = local_sum;
    wg_data2[tid] = local_sum2;
    barrier();

    // Tree reduction for mean and variance
    uint stride = 128u;
    for (;;) {
      if (stride == 0u) { break; }
      if (tid < stride) {
        wg_data[tid] += wg_data[tid + stride];
        wg_data2[tid] += wg_data2[tid + stride];
      }
      barrier();
      stride >>= 1u;
    }
    float mean = wg_data[0] / float(group_size);
    float variance = wg_data2[0] / float(group_size) - mean * mean;
    float inv_std = inversesqrt(variance + eps);
    barrier();

    // Cooperative accumulation of dw and db over spatial for this channel
    float local_dw = 0.0;
    float local_db = 0.0;
    j = tid;
    for (;;) {
      if (j >= params.spatial) { break; }
      uint idx = ((n * params.channels + c) * params.spatial) + j;
      float dy = src_a[idx];
      float xhat = (src_b[idx] - mean) * inv_std;
      local_dw += dy * xhat;
      local_db += dy;
      j += 256u;
    }
    wg_data[tid] = local_dw;
    wg_data2[tid] = local_db;
    barrier();

    stride = 128u;
    for (;;) {
      if (stride == 0u) { break; }
      if (tid < stride) {
        wg_data[tid] += wg_data[tid + stride];
        wg_data2[tid] += wg_data2[tid + stride];
      }
      barrier();
      stride >>= 1u;
    }
    acc_dw += wg_data[0];
    acc_db += wg_data2[0];
    barrier();
  }

  if (tid == 0u) {
    dst[c] = acc_dw;
    dst[params.channels + c] = acc_db;
  }
}
#else
#error "define ENTRY_GRAD_INPUT or ENTRY_GRAD_WEIGHT_BIAS"
#endif
