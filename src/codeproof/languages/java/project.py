"""A finished Java project: Dockerfile and README text."""

from __future__ import annotations

from codeproof.languages.base import Project

JUNIT_VERSION = "1.10.2"

DOCKERFILE = f"""\
FROM eclipse-temurin:17-jdk
WORKDIR /app
ARG JUNIT_VERSION={JUNIT_VERSION}
ADD https://repo1.maven.org/maven2/org/junit/platform/junit-platform-console-standalone/\\
${{JUNIT_VERSION}}/junit-platform-console-standalone-${{JUNIT_VERSION}}.jar /opt/junit.jar
COPY . .
RUN javac -d out -cp /opt/junit.jar *.java
CMD ["java", "-jar", "/opt/junit.jar", "execute", "--class-path", "out", "--scan-class-path"]
"""

PROJECT = Project(
    dockerfile=DOCKERFILE,
    install="Requires a JDK 17+ and, for the tests, the JUnit 5 console launcher "
    "(`junit-platform-console-standalone.jar`).",
    run_tests="javac -d out -cp junit-platform-console-standalone.jar *.java\n"
    "java -jar junit-platform-console-standalone.jar execute --class-path out --scan-class-path",
)
