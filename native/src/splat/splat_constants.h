// The splatting constants, repeated from src/splat/constants.ts (the one
// place they are documented; tests/splat/native-constants.test.ts reads this
// header and compares every value, so the two cannot drift apart).
#pragma once

namespace rlx {
namespace splat {

constexpr double COV2D_BLUR = 0.3;
constexpr double CLAMP_MARGIN = 0.3;
constexpr double RADIUS_SIGMAS = 3;
constexpr double EIGEN_FLOOR = 0.1;
constexpr double ALPHA_MAX = 0.999;
constexpr double ALPHA_MIN = 1.0 / 255.0;
constexpr double T_STOP = 1e-4;
constexpr double PIXEL_CENTER = 0.5;
constexpr double SH_OFFSET = 0.5;
constexpr int MAX_SH_DEGREE = 3;

constexpr double SH_C0 = 0.28209479177387814;
constexpr double SH_C1 = 0.4886025119029199;
constexpr double SH_C2[5] = {1.0925484305920792, -1.0925484305920792, 0.31539156525252005, -1.0925484305920792, 0.5462742152960396};
constexpr double SH_C3[7] = {-0.5900435899266435, 2.890611442640554, -0.4570457994644658, 0.3731763325901154, -0.4570457994644658, 1.445305721320277, -0.5900435899266435};

}  // namespace splat
}  // namespace rlx
