// The devices every op test runs on: every backend that is available in this
// process. 'js' is always there; 'native' and 'webgpu' join when they are built.
//
// CI sets RLX_REQUIRE_NATIVE=1 on the machines that build the C++ addon: there a
// missing native backend must fail the run loudly instead of silently shrinking
// the parity matrix to 'js' only.

import * as rlx from '../../src/index.js';

const statuses = rlx.backends();

if (process.env['RLX_REQUIRE_NATIVE'] === '1') {
  const native = statuses.find((b) => b.name === 'native');
  if (!native || !native.available) {
    throw new Error(
      `RLX_REQUIRE_NATIVE=1 but the 'native' backend is not available` +
        (native?.reason ? ` (${native.reason})` : native ? '' : ' (it is not even registered)') +
        `; available backends: ${statuses.filter((b) => b.available).map((b) => b.name).join(', ') || 'none'}. ` +
        `Build the native addon or unset RLX_REQUIRE_NATIVE.`,
    );
  }
}

/** Names of the available backends, e.g. ['js'] or ['js', 'native']. */
export const DEVICES: string[] = statuses.filter((b) => b.available).map((b) => b.name);

if (DEVICES.length === 0) throw new Error('no rlx backend is available: the parity suite has nothing to run on');
