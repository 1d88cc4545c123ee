package jsonrpc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxHeaderLine bounds one header line: a header is a few dozen bytes,
// and a stream of garbage without newlines must not fill the memory.
const maxHeaderLine = 4096

// DefaultMaxBody is the largest message body a Reader accepts unless
// told otherwise: a .lip file larger than lipton's input limit (16 MiB),
// escaped as JSON, still fits.
const DefaultMaxBody = 64 << 20

// FrameError is a frame the Reader could not read: a header without
// Content-Length, a bad length, a body too large. The stream goes on:
// the next Read looks for the next frame.
type FrameError struct{ Msg string }

func (e *FrameError) Error() string { return "bad message frame: " + e.Msg }

// Reader reads the bodies of Content-Length framed messages.
type Reader struct {
	r       *bufio.Reader
	maxBody int64
	// lost says that the last frame was bad: the next Read skips lines
	// until one that starts a header block.
	lost bool
}

// NewReader returns a Reader of r that accepts bodies of at most maxBody
// bytes (DefaultMaxBody if maxBody <= 0).
func NewReader(r io.Reader, maxBody int64) *Reader {
	if maxBody <= 0 {
		maxBody = DefaultMaxBody
	}
	return &Reader{r: bufio.NewReader(r), maxBody: maxBody}
}

// Read returns the body of the next message. At the end of the stream
// it returns io.EOF; for a bad frame, a *FrameError (the stream can be
// read on); for an error of the stream, that error.
func (r *Reader) Read() ([]byte, error) {
	length, err := r.readHeader()
	if err != nil {
		var fe *FrameError
		if errors.As(err, &fe) {
			r.lost = true
		}
		return nil, err
	}
	if length > r.maxBody {
		if _, err := io.CopyN(io.Discard, r.r, length); err != nil {
			return nil, unexpectedEOF(err)
		}
		return nil, &FrameError{fmt.Sprintf("a body of %d bytes is larger than the limit of %d", length, r.maxBody)}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r.r, body); err != nil {
		return nil, unexpectedEOF(err)
	}
	return body, nil
}

// unexpectedEOF turns the end of the stream inside a frame into
// io.ErrUnexpectedEOF: only the end between frames is a clean end.
func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readHeader reads a header block and returns its Content-Length.
func (r *Reader) readHeader() (int64, error) {
	length := int64(-1)
	first := true
	for {
		line, err := r.readLine()
		var fe *FrameError
		if r.lost && errors.As(err, &fe) {
			continue // garbage between frames: one error was enough
		}
		if err != nil {
			if err == io.EOF && !first {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		if r.lost {
			// After a bad frame, skip to the next header block.
			if !isLengthHeader(line) {
				continue
			}
			r.lost = false
		}
		if line == "" {
			if first {
				continue // blank lines between frames are harmless
			}
			if length < 0 {
				return 0, &FrameError{"the header has no Content-Length"}
			}
			return length, nil
		}
		first = false
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return 0, &FrameError{fmt.Sprintf("a header line without a colon: %q", abbrev(line))}
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return 0, &FrameError{fmt.Sprintf("a bad Content-Length: %q", abbrev(value))}
			}
			length = n
		}
		// Other headers (Content-Type) carry nothing lipton needs.
	}
}

func isLengthHeader(line string) bool {
	return len(line) >= len("content-length") && strings.EqualFold(line[:len("content-length")], "content-length")
}

// readLine reads one header line without its line end (\r\n or \n). A
// line longer than maxHeaderLine is a FrameError; the rest of it is
// skipped.
func (r *Reader) readLine() (string, error) {
	var buf []byte
	for {
		chunk, err := r.r.ReadSlice('\n')
		if len(buf)+len(chunk) > maxHeaderLine {
			for err == bufio.ErrBufferFull {
				_, err = r.r.ReadSlice('\n')
			}
			if err != nil && err != io.EOF {
				return "", err
			}
			return "", &FrameError{"a header line is too long"}
		}
		buf = append(buf, chunk...)
		switch err {
		case nil:
			return string(bytes.TrimRight(buf, "\r\n")), nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(buf) == 0 {
				return "", io.EOF
			}
			return "", io.ErrUnexpectedEOF
		default:
			return "", err
		}
	}
}

func abbrev(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// WriteFrame writes body as one framed message.
func WriteFrame(w io.Writer, body []byte) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(body))
	b.Write(body)
	_, err := w.Write(b.Bytes())
	return err
}
