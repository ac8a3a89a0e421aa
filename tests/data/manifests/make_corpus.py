#!/usr/bin/env python3
# Regenerates the manifest corpus: good/ holds one valid manifest, bad/<case>/ the same manifest
# with one thing wrong (test_manifest.cpp lists the error each case must produce).
import json, os, copy, shutil
root = os.path.dirname(os.path.abspath(__file__))
shader = '#version 450\n// Placeholder: manifests are validated without compiling their shaders.\nlayout(local_size_x = WG_SIZE) in;\nvoid main() {}\n'
base = {
  "name": "base",
  "description": "a valid manifest; each bad case changes one thing",
  "buffers": {
    "grad_out": {"tensor": "grad_out"},
    "x": {"tensor": "x"},
    "weight": {"tensor": "weight"},
    "grad_input": {"tensor": "grad_input"},
    "grad_weight_bias": {"packed": ["grad_weight", "grad_bias"]}
  },
  "stages": [{
    "name": "main",
    "shader": "k.comp",
    "workgroup_size": 256,
    "dispatch": ["N * G", 1, 1],
    "bindings": ["grad_out", "x", "weight", "grad_input", "grad_weight_bias", "params"]
  }]
}
def write(dirname, files):
    d = os.path.join(root, dirname)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for name, content in files.items():
        with open(os.path.join(d, name), 'w') as f:
            f.write(content if isinstance(content, str) else json.dumps(content, indent=2) + '\n')
def case(name, mutate, shader_needed=True):
    m = copy.deepcopy(base); m["name"] = name
    m["description"] = "broken on purpose: " + name.replace('_', ' ')
    mutate(m)
    files = {"manifest.json": m}
    if shader_needed: files["k.comp"] = shader
    write('bad/' + name, files)

write('good', {"base.json": base, "k.comp": shader})
write('bad/malformed_json', {"manifest.json": '{\n  "name": "malformed_json",\n  "buffers": {\n', "k.comp": shader})
case('unknown_field', lambda m: m.update({"workgroups": 4}))
case('unknown_stage_field', lambda m: m["stages"][0].update({"entry": "main"}))
case('missing_stages', lambda m: m.pop("stages"))
case('empty_stages', lambda m: m.update({"stages": []}))
case('unknown_tensor', lambda m: m["buffers"]["x"].update({"tensor": "input"}))
def no_buffer(m): m["buffers"]["grad_weight_bias"]["packed"] = ["grad_weight"]
case('output_in_no_buffer', no_buffer)
def two_buffers(m): m["buffers"]["gw"] = {"tensor": "grad_weight"}
case('output_in_two_buffers', two_buffers)
def input_twice(m): m["buffers"]["x2"] = {"tensor": "x"}
case('input_in_two_buffers', input_twice)
def packed_input(m): m["buffers"]["grad_weight_bias"]["packed"] = ["grad_weight", "grad_bias", "x"]
case('packed_input_tensor', packed_input)
def binding(m): m["stages"][0]["bindings"][1] = "input"
case('binding_unknown_buffer', binding)
def missing_shader(m): m["stages"][0]["shader"] = "glsl/missing.comp"
case('missing_shader_file', missing_shader, shader_needed=False)
def bad_expr(m): m["stages"][0]["dispatch"][0] = "N * (G + 1"
case('bad_expression', bad_expr)
def bad_when(m): m["when"] = "sqrt(HW) > 4"
case('bad_expression_function', bad_when)
def expr_float(m): m["stages"][0]["dispatch"][1] = 1.5
case('expression_not_integer', expr_float)
case('workgroup_size_zero', lambda m: m["stages"][0].update({"workgroup_size": 0}))
case('workgroup_size_2000', lambda m: m["stages"][0].update({"workgroup_size": 2000}))
case('dispatch_four_entries', lambda m: m["stages"][0].update({"dispatch": [1, 1, 1, 1]}))
case('params_buffer_name', lambda m: m["buffers"].update({"params": {"scratch_bytes": 16}}))
case('zero_on_tensor_buffer', lambda m: m["buffers"]["grad_input"].update({"zero": True}))
case('unknown_feature', lambda m: m.update({"requires": ["tensor_cores"]}))
case('name_with_slash', lambda m: m.update({"name": "seed/fast"}))
# Two files defining the same variant name.
a = copy.deepcopy(base); a["name"] = "dup"
b = copy.deepcopy(base); b["name"] = "dup"; b["description"] = "second definition"
write('bad/duplicate_variant_name', {"a.json": a, "b.json": b, "k.comp": shader})
