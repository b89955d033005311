package source

import (
	"bufio"
	"bytes"
	"io"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// lineReader returns the lines of a bufio.Reader without their line end
// ("\n" or "\r\n"), counting them. A line longer than max is reported as
// too long and its bytes are dropped, so memory stays bounded by max.
type lineReader struct {
	br      *bufio.Reader
	max     int
	line    int    // number of the line last returned
	long    []byte // holds a line longer than the bufio buffer
	started bool
}

func newLineReader(br *bufio.Reader, max int) *lineReader {
	return &lineReader{br: br, max: max}
}

// next returns the next line, valid until the next call. tooLong says the
// line exceeded max; its content is then empty. err is io.EOF at the end
// or the reader's error.
func (l *lineReader) next() (line []byte, tooLong bool, err error) {
	b, err := l.br.ReadSlice('\n')
	switch err {
	case nil:
	case io.EOF:
		if len(b) == 0 {
			return nil, false, io.EOF
		}
	case bufio.ErrBufferFull:
		b, tooLong, err = l.slow(b)
		if err != nil {
			return nil, false, err
		}
	default:
		return nil, false, err
	}
	l.line++
	if !l.started {
		l.started = true
		b = bytes.TrimPrefix(b, bom)
	}
	b = dropEOL(b)
	if tooLong || len(b) > l.max {
		return nil, true, nil
	}
	return b, false, nil
}

// slow reads the rest of a line longer than the buffer.
func (l *lineReader) slow(first []byte) ([]byte, bool, error) {
	tooLong := false
	l.long = append(l.long[:0], first...)
	for {
		b, err := l.br.ReadSlice('\n')
		if !tooLong {
			if len(l.long)+len(b) > l.max+2 { // +2: room for "\r\n"
				tooLong = true
				l.long = l.long[:0]
			} else {
				l.long = append(l.long, b...)
			}
		}
		switch err {
		case bufio.ErrBufferFull:
			continue
		case nil, io.EOF:
			if cap(l.long) > 4*bufSize && tooLong {
				l.long = nil // do not keep a huge buffer for one odd line
			}
			return l.long, tooLong, nil
		default:
			return nil, false, err
		}
	}
}

func dropEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}

// trimSpace trims ASCII white space and returns the number of bytes cut
// from the front.
func trimSpace(b []byte) ([]byte, int) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	j := len(b)
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j], i
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}
