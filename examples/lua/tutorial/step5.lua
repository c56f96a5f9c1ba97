-- Step 5: a save. The best time is kept between runs (earshot.save).
local best = earshot.save.get("best_s", 0.0)
if best > 0 then
    earshot.say(string.format("Best time %.1f seconds. Press Space as soon as you hear the beep.", best))
else
    earshot.say("Press Space as soon as you hear the beep.")
end
earshot.wait(2000 + math.random(0, 1000))
earshot.play("synth:sine:880:0.2:0.5")
local started = earshot.time()
while not earshot.key_pressed("SPACE") do earshot.wait(0) end
local took = earshot.time() - started
earshot.say(string.format("%.2f seconds", took))
if best == 0 or took < best then
    earshot.save.set("best_s", took)
    earshot.save.write()
    earshot.say("A new best", false)
end
earshot.summary(string.format("took=%.2f", took))
earshot.wait(3000)
earshot.quit()
