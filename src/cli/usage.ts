// What `attn` says it takes: printed by --help, and after a command line it cannot read. Its own
// file so that run.ts (the dispatcher) and the commands that print it share it without a cycle.
import { DEFAULT_MAX_BYTES } from '../core/json/json-tree.js';

export const USAGE = `usage:
  attn compute FILE [--json]     every intermediate of the attention computation
  attn validate FILE...          check specs; prints FILE:LINE:COL: [warning: ]path: message per problem
  attn analyze FILE [--json]     singular values, QK and OV circuits, head overlap, covariance
  attn inspect FILE [--json] [--tensor NAME]
                                 a model's attention (.safetensors, .npy, .npz): every head's statistics, rollout
  attn train FILE [--steps N] [--json]
                                 gradient descent on the spec's "train" section: the loss at every step, the learnt W
  attn render FILE --view arcs|matrix|steps|quadrant|projection|compare|training|geometry [--out FILE.svg]
              [--input N] [--head N|all] [--token N] [--width PX]
              [--theme light|dark|hc-dark|hc-light] [--show scores|scaled|weights|cosine] [--matrix wq|wk|wv|wo]
  attn render FILE.safetensors|.npy|.npz --view model|head|finder|rollout [--layer L] [--head H] [--token N]
              [--stat NAME] [--sort] [--softmax] [--tensor NAME] [--out FILE.svg|FILE.png] [--html FILE.html]
FILE may be - for standard input.
options:
  --max-bytes N   refuse specs larger than N bytes (default ${DEFAULT_MAX_BYTES})
  --help, --version`;
