// `rlx splat <render|orbit|fit> ...`: the Gaussian-splatting scripts of
// issue 17. One command with subcommands, because src/cli.ts parses each
// command's options once (strictly) before running it: the option table
// below is the union of the subcommands' options, and this file checks that
// every option given belongs to the subcommand it was given to, so
// `rlx splat render --frames 3` is a usage error, not a silently ignored flag.
// The subcommands live in splat-render.ts (render, orbit) and splat-fit.ts.

import { UsageError } from './errors.js';
import { positionals, type Command, type OptionSpec, type ParsedArgs } from './command.js';
import { orbitCommand, renderCommand } from './splat-render.js';
import { fitCommand } from './splat-fit.js';

const OPTIONS: Record<string, OptionSpec> = {
  output: { type: 'string', short: 'o', help: '-o, --output     render: out.png; orbit: a folder of frame-000.png …; fit: fit.ply or fit.splat' },
  camera: { type: 'string', help: '--camera <c>     render: lookat:ex,ey,ez:tx,ty,tz[:ux,uy,uz] (default: a view framing the scene)' },
  fov: { type: 'string', help: '--fov <deg>      render, orbit: vertical field of view in degrees (default 60)' },
  size: { type: 'string', help: '--size <WxH>     render, orbit: image size in pixels (default 800x600; orbit 512x512)' },
  up: { type: 'string', help: '--up <x,y,z>     render, orbit: the world direction shown upwards (default 0,1,0)' },
  background: { type: 'string', help: '--background <r,g,b>  render, orbit: colour behind the scene, each in [0, 1] (default 0,0,0)' },
  'sh-degree': { type: 'string', help: '--sh-degree <d>  render, orbit: SH bands used, ≤ the file\'s (default: all)' },
  frames: { type: 'string', help: '--frames <k>     orbit: frames in one turn (default 36)' },
  radius: { type: 'string', help: '--radius <r>     render, orbit: camera distance from the scene centre (default: frames the scene)' },
  elevation: { type: 'string', help: '--elevation <deg> render, orbit: camera height angle above the horizontal (default 20)' },
  gaussians: { type: 'string', help: '--gaussians <n>  fit: about n Gaussians on a grid (default 4096)' },
  iterations: { type: 'string', help: '--iterations <k> fit: Adam steps (default 200)' },
  seed: { type: 'string', help: '--seed <s>       fit: seed of the fit\'s random choices (default 0)' },
  device: { type: 'string', help: '--device <d>     js or native (default: the fastest available)' },
  quiet: { type: 'boolean', help: '--quiet          orbit, fit: no progress bar (it is drawn only on a terminal anyway)' },
};

/** Which options each subcommand takes (the rest are usage errors there). */
const SUBCOMMANDS: Record<string, { positional: string; options: string[]; run: (args: ParsedArgs, path: string) => number }> = {
  render: { positional: 'scene.ply', options: ['output', 'camera', 'fov', 'size', 'up', 'background', 'sh-degree', 'radius', 'elevation', 'device'], run: renderCommand },
  orbit: { positional: 'scene.ply', options: ['output', 'fov', 'size', 'up', 'background', 'sh-degree', 'frames', 'radius', 'elevation', 'device', 'quiet'], run: orbitCommand },
  fit: { positional: 'target.png', options: ['output', 'gaussians', 'iterations', 'seed', 'device', 'quiet'], run: fitCommand },
};

export const splat: Command = {
  name: 'splat',
  summary: 'Gaussian splatting: render a .ply/.splat scene to PNG, a turntable of frames, or fit Gaussians to an image',
  usage: 'splat render|orbit scene.ply [options]   or   rlx splat fit target.png [options]',
  options: OPTIONS,
  details: [
    'rlx splat render scene.ply [--camera lookat:ex,ey,ez:tx,ty,tz] [--fov 60] [--size 800x600] [-o out.png]',
    'rlx splat orbit scene.ply [--frames 36] [--radius r] [--elevation 20] [-o frames/]',
    'rlx splat fit target.png [--gaussians 4096] [--iterations 200] [-o fit.ply]',
    '',
    'render  one image of a 3DGS .ply or antimatter15 .splat scene; without --camera, a view from',
    '        --elevation above the scene framing it (centre: median of the means; size: 90th percentile',
    '        of their distance to it). --radius/--elevation place that default view.',
    'orbit   --frames PNGs from cameras circling the scene centre about --up (a turntable).',
    'fit     2-D Gaussians on a plane facing a camera fitted to the image (splat.fit: Adam, L1 + D-SSIM);',
    '        prints the PSNR and the render command that draws the result back.',
    'Cameras follow splat.lookAt (OpenCV axes, vertical fov in degrees). Exit 1 when a file is missing or malformed.',
  ].join('\n'),
  run(args) {
    const sub = args.positionals[0];
    if (sub === undefined) throw new UsageError(`missing the subcommand: ${Object.keys(SUBCOMMANDS).join(', ')}`);
    const spec = SUBCOMMANDS[sub];
    if (!spec) throw new UsageError(`unknown subcommand '${sub}'; subcommands: ${Object.keys(SUBCOMMANDS).join(', ')}`);
    for (const [k, v] of Object.entries(args.values)) {
      if (v === undefined || k === 'help' || k === 'verbose' || spec.options.includes(k)) continue;
      const users = Object.entries(SUBCOMMANDS).filter(([, s]) => s.options.includes(k)).map(([name]) => name);
      throw new UsageError(`--${k} applies to ${users.join(' and ')}, not ${sub}`);
    }
    const rest: ParsedArgs = { values: args.values, positionals: args.positionals.slice(1) };
    const [path] = positionals(rest, [spec.positional]) as [string];
    return spec.run(rest, path);
  },
};
