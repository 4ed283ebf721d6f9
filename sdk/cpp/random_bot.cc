// A B99 Arena bot in C++: dials the referee, says hello, answers each decision request with a
// random legal option. Works for every game; the view is unpacked from its Any into the game's
// typed View message (Underground Dice's pot and bills are logged as an example).
//
//   make -C sdk/cpp && b99 match underground_dice --bot sdk/cpp/build/random_bot --bot random
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include <grpcpp/grpcpp.h>

#include "b99/arena.grpc.pb.h"
#include "b99/games/deep_dive.pb.h"
#include "b99/games/fuji99.pb.h"
#include "b99/games/magnificent.pb.h"
#include "b99/games/merchants.pb.h"
#include "b99/games/underground_dice.pb.h"

namespace arena = b99::arena;
namespace games = b99::games;

// Unpack the Any into the game's own View type; false if the Any holds another type.
template <typename View>
bool unpack_view(const google::protobuf::Any& any, View* view) {
  return any.Is<View>() && any.UnpackTo(view);
}

// One line about the view for the log: the typed fields of Underground Dice, the type for the others.
std::string describe_view(const google::protobuf::Any& any, unsigned seat) {
  games::underground_dice::View dice;
  if (unpack_view(any, &dice)) {
    unsigned bills = seat < static_cast<unsigned>(dice.hands_size()) ? dice.hands(seat).bills() : 0;
    return "phase " + dice.phase() + ", pot " + std::to_string(dice.pot()) + ", my bills " + std::to_string(bills);
  }
  games::deep_dive::View dive;
  if (unpack_view(any, &dive)) return "deep_dive view, " + std::to_string(dive.players()) + " players";
  games::fuji99::View fuji;
  if (unpack_view(any, &fuji)) return "fuji99 view";
  games::magnificent::View magnificent;
  if (unpack_view(any, &magnificent)) return "magnificent view";
  games::merchants::View merchants;
  if (unpack_view(any, &merchants)) return "merchants view, round " + std::to_string(merchants.round());
  return "unknown view type " + any.type_url();
}

// The channel's credentials: TLS when B99_ARENA_CA_FILE (the PEM certificate that verifies a ladder
// with its own certificate) or B99_ARENA_TLS=1 (a ladder with a public certificate) is set, as the
// Python and JS SDKs do; plaintext otherwise (a local referee needs neither). Null: the CA file is unreadable.
std::shared_ptr<grpc::ChannelCredentials> channel_credentials() {
  const char* ca_file = std::getenv("B99_ARENA_CA_FILE");
  if (ca_file != nullptr && *ca_file != '\0') {
    std::ifstream file(ca_file);
    std::stringstream pem;
    pem << file.rdbuf();
    if (!file || pem.str().empty()) {
      std::cerr << "B99_ARENA_CA_FILE: cannot read " << ca_file << "\n";
      return nullptr;
    }
    grpc::SslCredentialsOptions options;
    options.pem_root_certs = pem.str();
    return grpc::SslCredentials(options);
  }
  const char* tls = std::getenv("B99_ARENA_TLS");
  if (tls != nullptr && *tls != '\0' && std::string(tls) != "0") return grpc::SslCredentials(grpc::SslCredentialsOptions());
  return grpc::InsecureChannelCredentials();
}

int main() {
  const char* address = std::getenv("B99_ARENA_ADDRESS");
  const char* token = std::getenv("B99_SEAT_TOKEN");
  if (address == nullptr || token == nullptr) {
    std::cerr << "set B99_ARENA_ADDRESS and B99_SEAT_TOKEN (the referee sets both)\n";
    return 2;
  }
  std::mt19937_64 rng(std::random_device{}());
  const char* seed = std::getenv("B99_BOT_SEED");
  if (seed != nullptr) rng.seed(std::strtoull(seed, nullptr, 10));

  auto credentials = channel_credentials();
  if (credentials == nullptr) return 2;
  auto channel = grpc::CreateChannel(address, credentials);
  auto stub = arena::Arena::NewStub(channel);
  grpc::ClientContext context;
  // The token also goes in the call's metadata: the referee authenticates the stream before reading it.
  context.AddMetadata("b99-seat-token", token);
  auto stream = stub->Play(&context);

  arena::BotMessage hello;
  hello.mutable_hello()->set_seat_token(token);
  hello.mutable_hello()->set_bot_name("random-cpp");
  hello.mutable_hello()->set_bot_version("1");
  hello.mutable_hello()->set_protocol_version(1);
  if (!stream->Write(hello)) {
    std::cerr << "could not say hello\n";
    return 1;
  }

  unsigned seat = 0;
  bool first_request = true;
  bool played = false;
  arena::RefereeMessage message;
  while (stream->Read(&message)) {
    switch (message.body_case()) {
      case arena::RefereeMessage::kGameStart:
        seat = message.game_start().seat();
        std::cerr << "playing " << message.game_start().game() << " as seat " << seat << "\n";
        break;
      case arena::RefereeMessage::kDecisionRequest: {
        const auto& request = message.decision_request();
        if (first_request) {
          std::cerr << "first view (" << request.view().type_url() << "): " << describe_view(request.view(), seat) << "\n";
          first_request = false;
        } else {
          std::cerr << request.decision() << ": " << describe_view(request.view(), seat) << "\n";
        }
        std::uniform_int_distribution<int> pick(0, request.options_size() - 1);
        arena::BotMessage answer;
        answer.mutable_decision()->set_request_id(request.request_id());
        answer.mutable_decision()->set_option_id(request.options(pick(rng)).id());
        if (!stream->Write(answer)) {
          std::cerr << "the stream closed while answering\n";
        }
        break;
      }
      case arena::RefereeMessage::kGameOver: {
        const auto& over = message.game_over();
        std::cerr << "game over: rank " << over.ranks(seat) << "\n";
        played = true;
        stream->WritesDone();
        break;
      }
      case arena::RefereeMessage::kError:
        std::cerr << "referee: " << arena::ErrorCode_Name(message.error().code()) << ": " << message.error().message() << "\n";
        if (message.error().code() == arena::UNKNOWN_TOKEN) return 3;  // retrying with this token cannot help
        break;
      default:
        break;
    }
  }
  grpc::Status status = stream->Finish();
  if (!status.ok() && status.error_code() != grpc::StatusCode::CANCELLED) {
    std::cerr << "stream ended: " << status.error_message() << "\n";
    if (!played) return 1;  // never reached a game: a wrong address or a certificate that does not verify
  }
  return 0;
}
