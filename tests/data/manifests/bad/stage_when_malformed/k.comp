#version 450
// Placeholder: manifests are validated without compiling their shaders.
layout(local_size_x = WG_SIZE) in;
void main() {}
