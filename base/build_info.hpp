#pragma once

namespace gnbench {

// `git describe --always --dirty` of the source tree when gnbench was built ("unknown" outside
// a git checkout); defined in a file the build regenerates (scripts/git-revision.cmake).
const char* git_revision();

}  // namespace gnbench
