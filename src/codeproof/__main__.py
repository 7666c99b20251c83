from codeproof.cli import main

main()
