// The Metaspace pre-tokenizer as the Rust library defines it: every space becomes the replacement
// ("▁"), a "▁" is put before the text when it does not start with one (prepend_scheme "always"; "first":
// only before the text's first section, the one that starts the input; "never": not at all), and with
// split (the default) the text is cut before every "▁", each staying with what follows it: "Hey   friend!"
// gives "▁Hey", "▁", "▁", "▁friend!". Ours: the library's never splits and ignores the older
// add_prefix_space: false.

export interface MetaspaceConfig {
  replacement?: string;
  str_rep?: string;
  prepend_scheme?: 'first' | 'always' | 'never';
  add_prefix_space?: boolean;
  split?: boolean;
}

/** The pieces of one section of text; `first` says whether the section starts the input. */
export function metaspace(config: MetaspaceConfig): (text: string, first: boolean) => string[] {
  const replacement = config.replacement ?? '\u2581';
  const scheme = config.prepend_scheme ?? (config.add_prefix_space === false ? 'never' : 'always');
  const split = config.split ?? true;
  return (text, first) => {
    let out = text.replaceAll(' ', replacement);
    if (!out.startsWith(replacement) && (scheme === 'always' || (scheme === 'first' && first))) out = replacement + out;
    if (!split || replacement === '') return [out];
    const pieces: string[] = [];
    let start = 0;
    for (let at = out.indexOf(replacement, 1); at > 0; at = out.indexOf(replacement, at + replacement.length)) {
      pieces.push(out.slice(start, at));
      start = at;
    }
    if (start < out.length) pieces.push(out.slice(start));
    return pieces;
  };
}
