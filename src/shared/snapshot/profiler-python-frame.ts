// A `python_function` event's name as a frame: the profiler writes `file.py(42): forward`, the
// file relative to the sys.path entry it was found on (`torch/nn/modules/module.py`, `train.py`),
// and names calls into C `<built-in method empty of type object at 0x…>` without a file.

export interface PythonFrameFields {
  filename: string;
  name: string;
  /** -1 when the name gives none. */
  line: number;
}

/** Longest line number read as one (a real one has a few digits). */
const MAX_LINE_DIGITS = 9;

export function pythonFrameOf(eventName: string): PythonFrameFields {
  // "file(line): name": the first "(digits): " that ends the file, read without a regular
  // expression (a name is the file's text and may be megabytes long).
  for (let open = eventName.indexOf('('); open > 0; open = eventName.indexOf('(', open + 1)) {
    let at = open + 1;
    while (at < eventName.length && at - open <= MAX_LINE_DIGITS && isDigit(eventName, at)) at++;
    if (at > open + 1 && eventName.startsWith('): ', at)) {
      return {
        filename: eventName.slice(0, open),
        name: eventName.slice(at + 3),
        line: Number(eventName.slice(open + 1, at)),
      };
    }
  }
  return { filename: '', name: eventName, line: -1 };
}

function isDigit(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 0x30 && code <= 0x39;
}
