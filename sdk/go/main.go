// A B99 Arena bot in Go, on the generated gRPC stubs alone: dial the referee, say hello, answer
// every decision request with a random legal option. The view arrives packed in an Any; it is
// unpacked into the game's typed View message.
package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"math/rand"
	"net"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	arena "b99/arena"
	_ "b99/games/deep_dive"
	_ "b99/games/fuji99"
	_ "b99/games/magnificent"
	_ "b99/games/merchants"
	dice "b99/games/underground_dice"
)

// dial connects to "unix:/path/arena.sock" (local matches) or "host:port" (--tcp, a ladder).
func dial(address string) (*grpc.ClientConn, error) {
	dialer := func(ctx context.Context, target string) (net.Conn, error) {
		var d net.Dialer
		if strings.HasPrefix(address, "unix:") {
			return d.DialContext(ctx, "unix", strings.TrimPrefix(address, "unix:"))
		}
		return d.DialContext(ctx, "tcp", address)
	}
	security, err := transport(address)
	if err != nil {
		return nil, err
	}
	return grpc.Dial("passthrough:///b99", security, grpc.WithContextDialer(dialer))
}

// transport is TLS when B99_ARENA_CA_FILE (the PEM certificate that verifies a ladder with its own
// certificate) or B99_ARENA_TLS=1 (a ladder with a public certificate) is set, as the Python and JS
// SDKs do, verifying the address's host name; plaintext otherwise (a local referee needs neither).
func transport(address string) (grpc.DialOption, error) {
	host := address
	if name, _, err := net.SplitHostPort(address); err == nil {
		host = name
	}
	if caFile := os.Getenv("B99_ARENA_CA_FILE"); caFile != "" {
		tlsCredentials, err := credentials.NewClientTLSFromFile(caFile, host)
		if err != nil {
			return nil, fmt.Errorf("B99_ARENA_CA_FILE: %w", err)
		}
		return grpc.WithTransportCredentials(tlsCredentials), nil
	}
	if flag := os.Getenv("B99_ARENA_TLS"); flag != "" && flag != "0" {
		return grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{ServerName: host})), nil
	}
	return grpc.WithInsecure(), nil
}

func main() {
	address, token := os.Getenv("B99_ARENA_ADDRESS"), os.Getenv("B99_SEAT_TOKEN")
	if address == "" || token == "" {
		fmt.Fprintln(os.Stderr, "set B99_ARENA_ADDRESS and B99_SEAT_TOKEN (the referee sets both)")
		os.Exit(2)
	}
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	conn, err := dial(address)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dial:", err)
		os.Exit(1)
	}
	defer conn.Close()
	stream, err := arena.NewArenaClient(conn).Play(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "play:", err)
		os.Exit(1)
	}
	hello := &arena.BotMessage{Body: &arena.BotMessage_Hello{Hello: &arena.Hello{
		SeatToken: token, BotName: "random-go", BotVersion: "1", ProtocolVersion: 1,
	}}}
	if err := stream.Send(hello); err != nil {
		fmt.Fprintln(os.Stderr, "hello:", err)
		os.Exit(1)
	}
	var seat uint32
	for {
		message, err := stream.Recv()
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "stream ended:", err)
			os.Exit(1)
		}
		switch body := message.Body.(type) {
		case *arena.RefereeMessage_GameStart:
			seat = body.GameStart.Seat
			fmt.Fprintf(os.Stderr, "playing %s as seat %d\n", body.GameStart.Game, seat)
		case *arena.RefereeMessage_DecisionRequest:
			request := body.DecisionRequest
			// The view is the game's own View message; every game's types are linked in above.
			view, err := request.View.UnmarshalNew()
			if err != nil {
				fmt.Fprintln(os.Stderr, "view:", err)
			} else if diceView, ok := view.(*dice.View); ok {
				fmt.Fprintf(os.Stderr, "%s: pot %d, my bills %d\n", request.Decision, diceView.Pot, diceView.Hands[seat].Bills)
			}
			option := request.Options[rng.Intn(len(request.Options))]
			answer := &arena.BotMessage{Body: &arena.BotMessage_Decision{Decision: &arena.Decision{
				RequestId: request.RequestId, Choice: &arena.Decision_OptionId{OptionId: option.Id},
			}}}
			if err := stream.Send(answer); err != nil {
				fmt.Fprintln(os.Stderr, "answer:", err)
			}
		case *arena.RefereeMessage_GameOver:
			fmt.Fprintf(os.Stderr, "game over: rank %d\n", body.GameOver.Ranks[seat])
			stream.CloseSend()
		case *arena.RefereeMessage_Error:
			fmt.Fprintf(os.Stderr, "referee: %s: %s\n", body.Error.Code, body.Error.Message)
			if body.Error.Code == arena.ErrorCode_UNKNOWN_TOKEN {
				os.Exit(3)
			}
		}
	}
}
