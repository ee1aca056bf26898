"""The SIGHAN label lines read the plain way, one line at a time, written apart from
paperscore.csc (whose byte scan and line-by-line reader it checks): the jars' reading
(each line and field trimmed of the characters up to U+0020, Java's String.trim; blank
and `#` lines skipped; `pid, 0` no error; else `pid, pos, char, ...`, SIGHAN 2013 subtask 1
`pid, pos, ...`) with paperscore's refusals (a malformed line, a repeated pid or
position, a correction that is not one character, a line end (CR or LF) inside a line).

read(lines) gives (pids, [{position: char code}]) or raises Refused(index of the line).
"""

MAX_POSITION = 2**31 - 1


class Refused(Exception):
    def __init__(self, index):
        super().__init__(index)
        self.index = index


def trim(text):
    start, end = 0, len(text)
    while start < end and ord(text[start]) <= 0x20:
        start += 1
    while end > start and ord(text[end - 1]) <= 0x20:
        end -= 1
    return text[start:end]


def position(text, opaque, index):
    """A position: a Java int (2014/2015; leading zeros read) or, with `opaque` (2013, read
    as strings), a plain positive integer as it is and any other text as a code above
    MAX_POSITION, one per distinct text."""
    digits = text != "" and all(c in "0123456789" for c in text)
    significant = text.lstrip("0") if digits else ""
    small = digits and 0 < len(significant) <= 10 and int(significant) <= MAX_POSITION
    if digits and significant == "":
        raise Refused(index)  # a 0 beside other values
    if opaque is not None:
        if small and significant == text:
            return int(text)
        if text not in opaque:
            opaque[text] = MAX_POSITION + 1 + len(opaque)
        return opaque[text]
    if not small:
        raise Refused(index)
    return int(significant)


def read(lines, positions_only=False, opaque=None, pid_space_drops_chars=False):
    pids, sentences, lines_of = [], [], {}
    for index, line in enumerate(lines):
        line = trim(line)
        if line == "" or line.startswith("#"):
            continue
        if "\r" in line or "\n" in line:
            raise Refused(index)
        parts = line.split(",")
        pid, values = trim(parts[0]), [trim(part) for part in parts[1:]]
        if pid == "" or not values or pid in lines_of:
            raise Refused(index)
        lines_of[pid] = index
        sentence = {}
        if values != ["0"]:
            width = 1 if positions_only else 2
            if values[-1] == "" or len(values) % width:
                raise Refused(index)
            for k in range(0, len(values), width):
                at = position(values[k], opaque, index)
                if at in sentence:
                    raise Refused(index)
                if positions_only:
                    sentence[at] = 0
                    continue
                if len(values[k + 1]) != 1:
                    raise Refused(index)
                # the 2013 jar loses the characters of a pid written with a space before its comma
                sentence[at] = 0 if pid_space_drops_chars and parts[0] != pid else ord(values[k + 1])
        pids.append(pid)
        sentences.append(sentence)
    return pids, sentences
