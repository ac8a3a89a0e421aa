#!/usr/bin/env python3
# Usage: make_broken_kernels.py OUT_DIR
# Writes OUT_DIR/*.json and OUT_DIR/glsl/*.comp from kernels/glsl/seed.comp and
# kernels/seed.json: each variant is the seed with exactly one bug, for the verifier self-test
# (test_broken_kernels.cpp). The test build runs it (tests/CMakeLists.txt), so the copies always
# follow the current seed; it fails loudly when a patched line no longer exists.
import json, os, re, sys, textwrap
if len(sys.argv) != 2:
    sys.exit('usage: make_broken_kernels.py OUT_DIR')
here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(here)
src = open(os.path.join(repo, 'kernels/glsl/seed.comp')).read()
seed_manifest = json.load(open(os.path.join(repo, 'kernels/seed.json')))
out = sys.argv[1]
os.makedirs(out + '/glsl', exist_ok=True)

def sub_once(text, old, new, start=0, end=None):
    end = len(text) if end is None else end
    region = text[start:end]
    assert region.count(old) == 1, (old, region.count(old))
    return text[:start] + region.replace(old, new) + text[end:]

def in_grad_input(text, old, new):
    gi = text.index('#if defined(ENTRY_GRAD_INPUT)'); wb = text.index('#elif defined(ENTRY_GRAD_WEIGHT_BIAS)')
    return sub_once(text, old, new, gi, wb)

def in_weight_bias(text, old, new):
    wb = text.index('#elif defined(ENTRY_GRAD_WEIGHT_BIAS)')
    return sub_once(text, old, new, wb)

def everywhere(text, old, new, count=1):
    assert text.count(old) == count, (old, text.count(old))
    return text.replace(old, new)

variants = {}

# 1. The last element of every (n, group) is never written.
def skip_tail(s):
    pass3 = s.index('// Pass 3: compute grad_input')
    return sub_once(s, 'if (j >= group_size) { break; }',
                    'if (j + 1u >= group_size) { break; }  // BUG: stops one element early', pass3, s.index('#elif'))
variants['broken_skip_tail'] = ('grad_input pass 3 stops one element short: the last element of every (n, group) keeps the poison', skip_tail)

# 2. Off-by-one loop bound: the last batch item is left out of grad_weight and grad_bias.
def off_by_one(s):
    return in_weight_bias(s, 'for (uint n = 0u; n < params.batch; n++) {',
                          'for (uint n = 0u; n + 1u < params.batch; n++) {  // BUG: off by one, skips n = N-1')
variants['broken_off_by_one'] = ('grad_weight_bias loops n < N-1: the last batch item is missing from grad_weight and grad_bias', off_by_one)

# 3. No barrier between reading wg_data[0] (mean, variance) and overwriting wg_data in pass 2.
def missing_barrier(s):
    return in_grad_input(s, '''  float inv_std = inversesqrt(variance + eps);
  barrier();
''', '''  float inv_std = inversesqrt(variance + eps);
  // BUG: the barrier() that keeps pass 2 from overwriting wg_data[0] before every
  // invocation has read the mean is missing.
''')
variants['broken_missing_barrier'] = ('grad_input lacks the barrier after reading wg_data[0]: a race between reading the statistics and pass 2 overwriting them', missing_barrier)

# 4. eps ignored.
def eps_ignored(s):
    return everywhere(s, 'float inv_std = inversesqrt(variance + eps);',
                      'float inv_std = inversesqrt(variance);  // BUG: eps ignored', count=2)
variants['broken_eps_ignored'] = ('inv_std = inversesqrt(variance): eps is ignored in both stages', eps_ignored)

# 5. grad_weight and grad_bias swapped.
def swap_wb(s):
    return in_weight_bias(s, '''    dst[c] = acc_dw;
    dst[params.channels + c] = acc_db;''', '''    dst[c] = acc_db;  // BUG: grad_weight and grad_bias swapped
    dst[params.channels + c] = acc_dw;''')
variants['broken_swap_wb'] = ('grad_weight_bias writes grad_bias where grad_weight goes and vice versa', swap_wb)

# 6. Unbiased variance (factor M / (M - 1)).
def variance_factor(s):
    return everywhere(s, 'float variance = wg_data2[0] / float(group_size) - mean * mean;',
                      'float variance = (wg_data2[0] / float(group_size) - mean * mean) * float(group_size) / '
                      'float(group_size - 1u);  // BUG: unbiased variance, a factor M / (M - 1) too large', count=2)
variants['broken_variance_factor'] = ('variance divided by M - 1 instead of M (unbiased) in both stages', variance_factor)

# 7. grad_input rounded through float16.
def fp16_output(s):
    return in_grad_input(s, 'dst[idx] = inv_std * (w * dy - mean_wdy - xhat * mean_wdy_xhat);',
                         'float value = inv_std * (w * dy - mean_wdy - xhat * mean_wdy_xhat);\n'
                         '    dst[idx] = unpackHalf2x16(packHalf2x16(vec2(value, 0.0))).x;  // BUG: float16 rounding')
variants['broken_fp16_output'] = ('grad_input rounded to float16 (packHalf2x16/unpackHalf2x16 round trip) before it is stored', fp16_output)

# Gap classes that only a suite varying eps, channels, channels per group and N*G catches
# (tests/test_verify_suite.cpp runs them on configs/verify.json alone).
# 8. eps hard-coded to the value every hand-written config used.
def eps_fixed(s):
    return everywhere(s, 'float eps = uintBitsToFloat(params.eps_bits);',
                      'float eps = 1e-5;  // BUG: eps hard-coded to the usual default', count=2)
variants['broken_eps_fixed'] = ('eps hard-coded to 1e-5 in both stages: right only for problems with eps = 1e-5', eps_fixed)

# 9. A 128-entry weight cache: channel c reads weight c mod 128.
def weight_c128(s):
    return everywhere(s, 'float w = bias[c];',
                      'float w = bias[c & 127u];  // BUG: weights read modulo 128 channels', count=2)
variants['broken_weight_c128'] = ('grad_input reads weight[c mod 128]: wrong only with more than 128 channels', weight_c128)

# 10. A 64-channel window per group: channels past the 64th of a group reuse the 64th weight.
def weight_cpg64(s):
    return everywhere(s, 'float w = bias[c];',
                      'float w = bias[c_start + min(c_local, 63u)];  // BUG: 64 weights per group', count=2)
variants['broken_weight_cpg64'] = ('grad_input reads at most 64 weights per group: wrong only with more than 64 channels per group', weight_cpg64)

# 11. The fold linearised with a fixed row stride of 65536 instead of gl_NumWorkGroups.x.
def fold_stride(s):
    return everywhere(s, 'uint linear_workgroup_id() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }',
                      'uint linear_workgroup_id() { return gl_WorkGroupID.y * 65536u + gl_WorkGroupID.x; }  // BUG: assumes rows of 65536')
variants['broken_fold_stride'] = ('workgroup id linearised as y * 65536 + x: wrong only when the dispatch folds (N*G > 65535, or C > 65535)', fold_stride)

# 12. grad_weight_bias scales the n = 0 slice of grad_out after it has read it: this run's
# outputs are right, but every later run (and every later variant) sees a different grad_out.
def writable(s, binding, block):
    decl = f'layout(std430, set = 0, binding = {binding}) readonly buffer {block}'
    return everywhere(s, decl, decl.replace('readonly ', ''))

def writes_input(s):
    s = writable(s, 0, 'SrcA')
    return in_weight_bias(s, '    dst[params.channels + c] = acc_db;', '''    dst[params.channels + c] = acc_db;
    // BUG: writes into its input grad_out (n = 0 only), after its own last read of it
    for (uint hw = 0u; hw < params.spatial; hw++) {
      src_a[c * params.spatial + hw] = 2.0 * src_a[c * params.spatial + hw] + 1.0;
    }''')
variants['broken_writes_input'] = ('grad_weight_bias writes 2 * grad_out + 1 into grad_out for n = 0 after reading it: its own outputs are right, the next run sees other inputs', writes_input)

# 13. Writes into x only where the output already holds a value: never in a poisoned run
# (verification), only from the second sample of a hot timing batch on.
def writes_input_when_timed(s):
    s = writable(s, 1, 'SrcB')
    return in_grad_input(s, '    dst[idx] = inv_std * (w * dy - mean_wdy - xhat * mean_wdy_xhat);',
                         '''    // BUG: a hot timing sample finds the last sample's value, not the poison, and then
    // writes into its input x (hw = 0 only)
    if (floatBitsToUint(dst[idx]) != 0x7FC0DEADu && hw == 0u) { src_b[idx] = src_b[idx] + 1.0; }
    dst[idx] = inv_std * (w * dy - mean_wdy - xhat * mean_wdy_xhat);''')
variants['broken_writes_input_when_timed'] = ('grad_input adds 1 to x[n, c, 0] when the output was not poisoned, i.e. only in hot timing runs after the first sample', writes_input_when_timed)

# 14. Counts its workgroups in a zero-filled scratch counter and never resets it: every run's
# outputs are right, but the counter is left non-zero (the runtime zero-fills such scratch
# before poisoned runs only; between hot samples the variant must keep it zero itself).
def counter_kept(s):
    s = sub_once(s, '#if defined(ENTRY_GRAD_INPUT)\n', '''#if defined(ENTRY_GRAD_INPUT)
layout(std430, set = 0, binding = 5) buffer Count { uint count[]; };
''')
    main = s.index('void main() {')
    return sub_once(s, 'void main() {\n', '''void main() {
  // BUG: counts its workgroups in a zero-filled counter and never resets it
  if (gl_LocalInvocationID.x == 0u) { atomicAdd(count[0], 1u); }
''', main, main + 20)

def counter_kept_manifest(m):
    m['buffers']['counter'] = {'scratch_bytes': '4', 'zero': True}
    m['stages'][0]['bindings'].append('counter')

variants['broken_counter_kept'] = ('grad_input counts its workgroups in a zero-filled scratch counter and never resets it: right outputs, a dirty counter after every run', counter_kept, counter_kept_manifest)

header_re = re.compile(r'\A#version 450\n(// .*\n)+', re.M)
for name, (what, patch, *manifest_patch) in variants.items():
    body = patch(src)
    assert body != src
    m = header_re.match(body)
    lines = textwrap.wrap('DELIBERATELY BROKEN copy of kernels/glsl/seed.comp for the verifier self-test '
                          '(tests/test_broken_kernels.cpp): ' + what + '.', 95)
    body = ('#version 450\n' + ''.join('// ' + l + '\n' for l in lines) +
            '// Generated with one change from the seed, marked BUG below; every other line is the seed.\n'
            + body[m.end():])
    open(f'{out}/glsl/{name}.comp', 'w').write(body)
    man = json.loads(json.dumps(seed_manifest))
    man['name'] = name
    man['description'] = 'BROKEN on purpose (verifier self-test): ' + what
    for st in man['stages']:
        st['shader'] = f'glsl/{name}.comp'
    for fix in manifest_patch:
        fix(man)
    with open(f'{out}/{name}.json', 'w') as f:
        f.write(json.dumps(man, indent=2) + '\n')

