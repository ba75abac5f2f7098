import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORLDS } from '../../../sandbox/test-support/sandbox-world';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { codexReadFileTool as readFile, MAX_LINE_LENGTH } from './read-file';

const CPP_SAMPLE = `#include <vector>
#include <string>

namespace sample {
class Runner {
public:
    void setup() {
        if (enabled_) {
            init();
        }
    }

    // Run the code
    int run() const {
        switch (mode_) {
            case Mode::Fast:
                return fast();
            case Mode::Slow:
                return slow();
            default:
                return fallback();
        }
    }

private:
    bool enabled_ = false;
    Mode mode_ = Mode::Fast;

    int fast() const {
        return 1;
    }
};
}  // namespace sample
`;

describe.each(WORLDS)('codex read_file ($name file system)', (factory) => {
  let tools: ToolWorld;
  beforeEach(async () => {
    tools = await openToolWorld(factory);
  });
  afterEach(() => tools.dispose());

  const read = (args: Record<string, unknown>) => tools.call(readFile, args);
  const lines = async (args: Record<string, unknown>) => {
    const result = await read(args);
    expect(result.error).toBeNull();
    return result.output?.split('\n');
  };

  describe('slice mode', () => {
    it('reads the whole file as L<n>: lines with no trailing newline', async () => {
      await tools.put('a.txt', 'alpha\nbeta\ngamma\n');
      expect(await read({ file_path: 'a.txt' })).toEqual({
        success: true,
        output: 'L1: alpha\nL2: beta\nL3: gamma',
        error: null,
      });
    });

    it('reads the requested range', async () => {
      await tools.put('a.txt', 'alpha\nbeta\ngamma\n');
      expect(await lines({ file_path: 'a.txt', offset: 2, limit: 2 })).toEqual(['L2: beta', 'L3: gamma']);
      expect(await lines({ file_path: 'a.txt', offset: 1, limit: 2 })).toEqual(['L1: alpha', 'L2: beta']);
    });

    it('defaults to 2000 lines from line 1', async () => {
      await tools.put('big.txt', Array.from({ length: 2100 }, (_, index) => `line ${index + 1}`).join('\n'));
      const shown = await lines({ file_path: 'big.txt' });
      expect(shown).toHaveLength(2000);
      expect(shown?.at(-1)).toBe('L2000: line 2000');
    });

    it('strips the CR of CRLF endings and keeps a last line without newline', async () => {
      await tools.put('crlf.txt', 'one\r\ntwo\r\nthree');
      expect(await lines({ file_path: 'crlf.txt' })).toEqual(['L1: one', 'L2: two', 'L3: three']);
    });

    it('cuts lines longer than 500 code points, counting an emoji as one', async () => {
      await tools.put('long.txt', `${'x'.repeat(MAX_LINE_LENGTH + 50)}\n${'😀'.repeat(600)}\n`);
      expect(await lines({ file_path: 'long.txt' })).toEqual([
        `L1: ${'x'.repeat(MAX_LINE_LENGTH)}`,
        `L2: ${'😀'.repeat(MAX_LINE_LENGTH)}`,
      ]);
    });

    it('shows invalid UTF-8 as U+FFFD, as codex-rs does', async () => {
      await tools.put('latin1.txt', new Uint8Array([0xff, 0xfe, 0x0a, ...Buffer.from('plain\n')]));
      expect(await lines({ file_path: 'latin1.txt' })).toEqual(['L1: \uFFFD\uFFFD', 'L2: plain']);
    });

    it('reads files by absolute path inside the workspace and in shared/', async () => {
      await tools.put('a.txt', 'alpha\n');
      await tools.world.writeFile(`${tools.world.shared}/s.md`, 'shared line\n');
      expect(await lines({ file_path: tools.inWorkspace('a.txt') })).toEqual(['L1: alpha']);
      expect(await lines({ file_path: 'shared/s.md' })).toEqual(['L1: shared line']);
    });
  });

  describe('errors', () => {
    it.each([
      [{ offset: 0 }, 'offset must be a 1-indexed line number'],
      [{ limit: 0 }, 'limit must be greater than zero'],
      [{ offset: 4 }, 'offset exceeds file length'],
      [{ mode: 'indentation', indentation: { anchor_line: 9 } }, 'anchor_line exceeds file length'],
      [{ mode: 'indentation', indentation: { max_lines: 0 } }, 'max_lines must be greater than zero'],
      [
        { mode: 'indentation', indentation: { anchor_line: 0 } },
        'anchor_line must be a 1-indexed line number',
      ],
    ])('%j is refused with codex-rs text', async (extra, error) => {
      await tools.put('a.txt', 'alpha\nbeta\ngamma\n');
      expect(await read({ file_path: 'a.txt', ...extra })).toEqual({ success: false, output: null, error });
    });

    it('says offset exceeds file length for an empty file', async () => {
      await tools.put('empty.txt', '');
      expect((await read({ file_path: 'empty.txt' })).error).toBe('offset exceeds file length');
    });

    it('refuses unknown parameters and a missing file_path by name', async () => {
      await tools.put('a.txt', 'alpha\n');
      expect((await read({ file_path: 'a.txt', lines: 3 })).error).toBe("unknown parameter 'lines'");
      expect((await read({})).error).toBe("missing required parameter 'file_path'");
      expect((await read({ file_path: 'a.txt', offset: '2' })).error).toBe(
        'offset: Invalid input: expected number, received string',
      );
      expect((await read({ file_path: 'a.txt', mode: 'slice', indentation: { depth: 1 } })).error).toBe(
        "unknown parameter 'depth' in 'indentation'",
      );
    });

    it('names missing files and folders with the io error texts codex models know', async () => {
      await tools.put('dir/x.txt', 'x');
      expect((await read({ file_path: 'missing.txt' })).error).toBe(
        'failed to read file: No such file or directory (os error 2)',
      );
      expect((await read({ file_path: 'dir' })).error).toBe(
        'failed to read file: Is a directory (os error 21)',
      );
    });

    it('refuses images, PDFs and binary files with @ljoukov/llm texts', async () => {
      await tools.put('pic.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]));
      await tools.put('photo.JPG', 'not really a jpeg');
      await tools.put('doc.pdf', '%PDF-1.7\n');
      await tools.put('blob.bin', new Uint8Array([1, 2, 0, 3]));
      expect((await read({ file_path: 'pic.png' })).error).toBe(
        'read_file only supports text files; "pic.png" is an image (image/png).',
      );
      expect((await read({ file_path: 'photo.JPG' })).error).toBe(
        'read_file only supports text files; "photo.JPG" is an image (image/jpeg).',
      );
      expect((await read({ file_path: 'doc.pdf' })).error).toBe(
        'read_file only supports text files; "doc.pdf" is a PDF.',
      );
      expect((await read({ file_path: 'blob.bin' })).error).toBe(
        'read_file only supports UTF-8 text files; "blob.bin" appears to be binary.',
      );
    });

    it('refuses a path outside the workspace with the sandbox reason', async () => {
      const result = await read({ file_path: '../resume.json' });
      expect(result.success).toBe(false);
      expect(result.error).toMatch(
        /^failed to read file: '\.\.\/resume\.json' is outside the folders you may read/,
      );
    });
  });

  describe('indentation mode (codex-rs cases)', () => {
    const indented = (file: string, args: Record<string, unknown>, indentation: Record<string, unknown>) =>
      lines({ file_path: file, mode: 'indentation', ...args, indentation });

    it('captures the block around the anchor', async () => {
      await tools.put('a.rs', 'fn outer() {\n    if cond {\n        inner();\n    }\n    tail();\n}\n');
      expect(await indented('a.rs', { offset: 3, limit: 10 }, { anchor_line: 3, max_levels: 1 })).toEqual([
        'L2:     if cond {',
        'L3:         inner();',
        'L4:     }',
      ]);
    });

    it('expands to parents by max_levels', async () => {
      await tools.put(
        'm.rs',
        'mod root {\n    fn outer() {\n        if cond {\n            inner();\n        }\n    }\n}\n',
      );
      expect(await indented('m.rs', { offset: 4, limit: 50 }, { anchor_line: 4, max_levels: 2 })).toEqual([
        'L2:     fn outer() {',
        'L3:         if cond {',
        'L4:             inner();',
        'L5:         }',
        'L6:     }',
      ]);
      expect(await indented('m.rs', { offset: 4, limit: 50 }, { anchor_line: 4, max_levels: 3 })).toEqual([
        'L1: mod root {',
        'L2:     fn outer() {',
        'L3:         if cond {',
        'L4:             inner();',
        'L5:         }',
        'L6:     }',
        'L7: }',
      ]);
    });

    it('includes sibling blocks only when asked', async () => {
      await tools.put(
        'w.rs',
        'fn wrapper() {\n    if first {\n        do_first();\n    }\n    if second {\n        do_second();\n    }\n}\n',
      );
      const base = { anchor_line: 3, max_levels: 1 };
      expect(await indented('w.rs', { limit: 50 }, base)).toEqual([
        'L2:     if first {',
        'L3:         do_first();',
        'L4:     }',
      ]);
      expect(await indented('w.rs', { limit: 50 }, { ...base, include_siblings: true })).toEqual([
        'L2:     if first {',
        'L3:         do_first();',
        'L4:     }',
        'L5:     if second {',
        'L6:         do_second();',
        'L7:     }',
      ]);
    });

    it('handles a Python class with siblings', async () => {
      await tools.put(
        'foo.py',
        'class Foo:\n    def __init__(self, size):\n        self.size = size\n    def double(self, value):\n        if value is None:\n            return 0\n        result = value * self.size\n        return result\nclass Bar:\n    def compute(self):\n        helper = Foo(2)\n        return helper.double(5)\n',
      );
      expect(
        await indented(
          'foo.py',
          { offset: 1, limit: 200 },
          { anchor_line: 7, include_siblings: true, max_levels: 1 },
        ),
      ).toEqual([
        'L2:     def __init__(self, size):',
        'L3:         self.size = size',
        'L4:     def double(self, value):',
        'L5:         if value is None:',
        'L6:             return 0',
        'L7:         result = value * self.size',
        'L8:         return result',
      ]);
    });

    it('takes the comment header above a block unless include_header is false', async () => {
      await tools.put('runner.cpp', CPP_SAMPLE);
      const body = [
        'L14:     int run() const {',
        'L15:         switch (mode_) {',
        'L16:             case Mode::Fast:',
        'L17:                 return fast();',
        'L18:             case Mode::Slow:',
        'L19:                 return slow();',
        'L20:             default:',
        'L21:                 return fallback();',
        'L22:         }',
        'L23:     }',
      ];
      expect(
        await indented('runner.cpp', { offset: 18, limit: 200 }, { anchor_line: 18, max_levels: 2 }),
      ).toEqual(['L13:     // Run the code', ...body]);
      expect(
        await indented(
          'runner.cpp',
          { limit: 200 },
          { anchor_line: 18, max_levels: 2, include_header: false },
        ),
      ).toEqual(body);
      expect(await indented('runner.cpp', { limit: 200 }, { anchor_line: 18, max_levels: 1 })).toEqual(
        body.slice(1, -1),
      );
      expect(
        await indented(
          'runner.cpp',
          { limit: 200 },
          { anchor_line: 18, max_levels: 2, include_header: false, include_siblings: true },
        ),
      ).toEqual([
        'L7:     void setup() {',
        'L8:         if (enabled_) {',
        'L9:             init();',
        'L10:         }',
        'L11:     }',
        'L12: ',
        'L13:     // Run the code',
        ...body,
      ]);
    });

    it('anchors on offset by default and caps the block at max_lines', async () => {
      await tools.put('runner.cpp', CPP_SAMPLE);
      expect(await indented('runner.cpp', { offset: 18 }, { max_lines: 1 })).toEqual([
        'L18:             case Mode::Slow:',
      ]);
      const capped = await indented('runner.cpp', { offset: 18 }, { max_levels: 2, max_lines: 3 });
      expect(capped).toEqual([
        'L17:                 return fast();',
        'L18:             case Mode::Slow:',
        'L19:                 return slow();',
      ]);
    });
  });

  it('advertises the codex-rs parameters with additionalProperties false', () => {
    const parameters = readFile.definition.parameters as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(Object.keys(parameters.properties)).toEqual([
      'file_path',
      'offset',
      'limit',
      'mode',
      'indentation',
    ]);
    expect(parameters.required).toEqual(['file_path']);
    expect(parameters.additionalProperties).toBe(false);
    expect(readFile.kind).toBe('file');
  });
});
