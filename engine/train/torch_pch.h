// Precompiled header for every translation unit of engine/train. Torch headers are included
// nowhere else in the project.
#pragma once

#include <torch/torch.h>
