# An independent reading of tokenizer.json for the tokenizer tests: Python and its `regex` module
# (Debian's python3-regex; its \p{L} and scoped (?i:...) are close to the Oniguruma the Rust library uses),
# written from Hugging Face's documented rules, sharing no code with @huggingface/tokenizers.
# Covers what the fixtures use: added tokens split out first (longest match), normalizers NFC/NFKC/
# Lowercase/Prepend/Replace/Sequence, pre-tokenizers ByteLevel/Split(Isolated)/Metaspace(split false)/
# Sequence, BPE by rank (lowest rank, leftmost first) with byte fallback and fused unk, TemplateProcessing.
# stdin: {"tokenizer": path, "texts": [...]}; stdout: [[ids], ...].
import json
import os
import sys
import unicodedata

import regex

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from gpt2_bytes import bytes_to_unicode  # noqa: E402 (scripts/gpt2_bytes.py)

GPT2_REGEX = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""


BYTE_CHAR = bytes_to_unicode()


def normalize(node, text):
    if node is None:
        return text
    kind = node['type']
    if kind == 'Sequence':
        for member in node['normalizers']:
            text = normalize(member, text)
        return text
    if kind in ('NFC', 'NFKC', 'NFD', 'NFKD'):
        return unicodedata.normalize(kind, text)
    if kind == 'Lowercase':
        return text.lower()
    if kind == 'Prepend':
        return node['prepend'] + text if text else text
    if kind == 'Replace':
        return text.replace(node['pattern']['String'], node['content'])
    raise ValueError('normalizer ' + kind)


def pre_tokenize(node, words, first_section):
    if node is None:
        return words
    kind = node['type']
    if kind == 'Sequence':
        for member in node['pretokenizers']:
            words = pre_tokenize(member, words, first_section)
        return words
    out = []
    for word in words:
        if kind == 'ByteLevel':
            if node.get('add_prefix_space') and not word.startswith(' '):
                word = ' ' + word
            parts = regex.findall(GPT2_REGEX, word) if node.get('use_regex', True) else [word]
            out += [''.join(BYTE_CHAR[b] for b in p.encode('utf-8')) for p in parts]
        elif kind == 'Split':
            assert node['behavior'] == 'Isolated'
            pattern = node['pattern'].get('Regex') or regex.escape(node['pattern']['String'])
            at = 0
            for m in regex.finditer(pattern, word):
                if m.start() > at:
                    out.append(word[at:m.start()])
                if m.end() > m.start():
                    out.append(m.group(0))
                at = m.end()
            if at < len(word):
                out.append(word[at:])
        elif kind == 'Metaspace':
            rep = node.get('replacement', '\u2581')
            word = word.replace(' ', rep)
            scheme = node.get('prepend_scheme', 'always')
            if not word.startswith(rep) and (scheme == 'always' or (scheme == 'first' and first_section)):
                word = rep + word
            out.append(word)
        else:
            raise ValueError('pre_tokenizer ' + kind)
    return out


def bpe(model, ranks, word):
    vocab = model['vocab']
    symbols = list(word)
    while len(symbols) > 1:
        best = None
        for i in range(len(symbols) - 1):
            rank = ranks.get((symbols[i], symbols[i + 1]))
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, i)
        if best is None:
            break
        i = best[1]
        symbols[i:i + 2] = [symbols[i] + symbols[i + 1]]
    ids = []
    for s in symbols:
        if s in vocab:
            ids.append(vocab[s])
        elif model.get('byte_fallback') and all('<0x%02X>' % b in vocab for b in s.encode('utf-8')):
            ids += [vocab['<0x%02X>' % b] for b in s.encode('utf-8')]
        elif model.get('unk_token') is not None:
            unk = vocab[model['unk_token']]
            if not (model.get('fuse_unk') and ids and ids[-1] == unk):
                ids.append(unk)
    return ids


def split_added(text, added):
    """Sections of the text: (content, True) for an added token (longest match first), else (text, False)."""
    out, plain, i = [], '', 0
    by_length = sorted(added, key=len, reverse=True)
    while i < len(text):
        hit = next((a for a in by_length if text.startswith(a, i)), None)
        if hit is None:
            plain += text[i]
            i += 1
            continue
        if plain:
            out.append((plain, False))
            plain = ''
        out.append((hit, True))
        i += len(hit)
    if plain:
        out.append((plain, False))
    return out


def template(node, ids, token_id):
    if node is None:
        return ids
    if node['type'] == 'Sequence':
        for member in node['processors']:
            ids = template(member, ids, token_id)
        return ids
    if node['type'] != 'TemplateProcessing':
        return ids
    out = []
    for item in node['single']:
        if 'SpecialToken' in item:
            out.append(token_id(item['SpecialToken']['id']))
        else:
            out += ids
    return out


def encode(tok, ranks, text):
    model = tok['model']
    added = {t['content']: t['id'] for t in tok['added_tokens']}
    ids = []
    for index, (section, is_added) in enumerate(split_added(text, added)):
        if is_added:
            ids.append(added[section])
            continue
        section = normalize(tok['normalizer'], section)
        if not section:
            continue
        for word in pre_tokenize(tok['pre_tokenizer'], [section], index == 0):
            ids += bpe(model, ranks, word)
    return template(tok['post_processor'], ids, lambda content: added.get(content, model['vocab'].get(content)))


def main():
    request = json.load(sys.stdin)
    with open(request['tokenizer'], encoding='utf-8') as f:
        tok = json.load(f)
    merges = [tuple(m.split(' ')) if isinstance(m, str) else tuple(m) for m in tok['model']['merges']]
    ranks = {pair: rank for rank, pair in enumerate(merges)}
    json.dump([encode(tok, ranks, text) for text in request['texts']], sys.stdout)


main()
