#version 450
// Line 5 uses an undeclared name: the error must name this file and line 5.
layout(local_size_x = WG_SIZE) in;
void main() {
  float y = undeclared_name * 2.0;
  y += also_undeclared;
}
