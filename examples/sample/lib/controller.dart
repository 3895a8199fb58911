// Sample Dart code for the tour: a guard that disposes what it checked, and one that does not.
class Controller {
  void dispose() {}
}

class Screen {
  Controller? controller;
  Controller? other;

  void close() {
    if (controller != null) controller.dispose();
    if (other != null) controller.dispose();
    print('closed');
  }
}

void main() {
  final screen = Screen();
  screen.close();
  print(screen);
}
