import { gzipSync } from 'node:zlib';

// A tar.gz written byte by byte, as someone who means harm writes one: any name (`../x`, `/etc/x`, `__proto__`),
// the same name twice, entries in any order. tar's own writer refuses or rewrites such names.

/** One 512-byte ustar header of a regular file. */
function header(name: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  const field = (at: number, length: number, text: string) => block.write(text, at, length, 'utf8');
  field(0, 100, name);
  field(100, 8, '0000644\0');
  field(108, 8, '0000000\0');
  field(116, 8, '0000000\0');
  field(124, 12, `${size.toString(8).padStart(11, '0')}\0`);
  field(136, 12, '00000000000\0');
  field(156, 1, '0');
  field(257, 8, 'ustar\x0000');
  // The checksum is counted with its own field as eight spaces.
  field(148, 8, '        ');
  const sum = block.reduce((a, b) => a + b, 0);
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** A gzipped tar of these files, in this order, names as given. */
export function rawTarGz(files: [name: string, bytes: Buffer][]): Buffer {
  const parts = files.flatMap(([name, bytes]) => [header(name, bytes.length), bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512)]);
  return gzipSync(Buffer.concat([...parts, Buffer.alloc(1024)]));
}
